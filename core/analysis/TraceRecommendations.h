#pragma once
// Recommendations for a Kineto trace, the TensorBoard plugin's rules, each
// citing the numbers it is based on: input loading, DataParallel ->
// DistributedDataParallel, NCCL for DDP, communication, low GPU utilization,
// mixed precision for Tensor Cores, device memory near capacity.
#include <string>
#include <vector>

#include "analysis/GpuMetrics.h"

namespace ts {

struct TraceRecommendation {
    std::string rule; // dataloader, ddp, nccl, communication, gpu_utilization, amp, memory
    std::string text;
};

std::vector<TraceRecommendation> recommendForTrace(const Trace& trace, const GpuOverview& overview,
                                                   const GpuMetrics& metrics);

} // namespace ts
