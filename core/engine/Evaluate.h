#pragma once
// Loss and accuracy of a model over a loader (validation, `evaluate` command).
#include <atomic>
#include <string>

#include <torch/torch.h>

#include "data/DataLoader.h"
#include "models/Model.h"
#include "records/EvalResult.h"

namespace ts {

// Runs one pass in eval mode without gradients (restoring the train flag
// afterwards). Stops early, with what it has, when *cancel becomes true.
EvalResult evaluateModel(Model& model, DataLoader& loader, int epoch, const torch::Device& device,
                         const std::string& precision, double label_smoothing = 0.0,
                         const std::atomic<bool>* cancel = nullptr);

// Enables autocast for the scope when precision is bf16/fp16.
class AutocastScope {
public:
    AutocastScope(const torch::Device& device, const std::string& precision);
    ~AutocastScope();
    AutocastScope(const AutocastScope&) = delete;
    AutocastScope& operator=(const AutocastScope&) = delete;

private:
    c10::DeviceType device_type_;
    bool enabled_;
};

torch::Tensor classificationLoss(const torch::Tensor& logits, const torch::Tensor& labels,
                                 double label_smoothing);

} // namespace ts
