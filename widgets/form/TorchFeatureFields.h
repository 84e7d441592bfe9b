#pragma once
// The experiment form follows the LibTorch loaded: what that LibTorch cannot
// do (Kineto, fused optimizer kernels, newer TorchScript) is not offered, and
// each field says why. Devices and precisions follow it through the
// DevicePicker, which LibTorch's device list fills.
#include <string>
#include <vector>

#include "backend/TorchBackend.h"
#include "config/ExperimentConfig.h"

namespace ts::gui {

class FormFields;

// Enables, disables and explains the fields of `fields` for `features`.
void offerTorchFeatures(FormFields& fields, const TorchFeatures& features);

// What `config` asks of LibTorch that `features` lacks, as form issues (a
// Kineto recorder on a LibTorch without Kineto). Empty before LibTorch has
// loaded (torch_version empty): nothing is known to be missing then.
std::vector<ConfigIssue> torchFeatureIssues(const ExperimentConfig& config,
                                            const TorchFeatures& features);

} // namespace ts::gui
