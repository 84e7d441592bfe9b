#pragma once
// The GPU summary of a Kineto trace, per GPU (args.device of its kernels):
// utilization, estimated SM efficiency and achieved occupancy (from Kineto's
// per-kernel "blocks per SM" and "est. achieved occupancy %"), the share of
// operator kernel time on Tensor Cores; all over [first step start, last
// step end). Plus the trace-wide Tensor-Core ratios the recommendations use.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/DeviceOpTree.h"
#include "analysis/GpuOverview.h"

namespace ts {

struct GpuDeviceSummary {
    int32_t id = 0;
    bool has_properties = false; // deviceProperties of the trace name it
    std::string name;
    int64_t memory_bytes = 0;
    int32_t compute_major = 0, compute_minor = 0;
    double utilization = 0;                  // busy fraction, 0..1
    std::optional<double> sm_efficiency;     // 0..1; none without blocks-per-SM data
    std::optional<double> occupancy;         // percent (Kineto's unit), none without data
    std::optional<double> tensor_core_ratio; // 0..1; none when no op launched kernels
};

struct GpuMetrics {
    std::vector<GpuDeviceSummary> gpus; // by id
    // Kernel time on Tensor Cores over all kernels; none without kernels.
    std::optional<double> tc_used_ratio;
    // Kernel time launched by Tensor-Core eligible ops (the innermost
    // eligible ones) over all operator kernel time.
    double tc_eligible_ops_kernel_ratio = 0;
};

GpuMetrics computeGpuMetrics(const Trace& trace, const KinetoEvents& events,
                             const LaunchLinks& links, const DeviceOpTree& tree,
                             const GpuOverview& overview, bool plugin_compatible);

// Σ min(Σ blocks per SM of the kernels running, 1) over time: the pieces
// (start, end, efficiency) for one GPU, as the plugin's counter track.
struct SmEfficiencyPiece {
    int64_t start, end;
    double value;
};
std::vector<SmEfficiencyPiece> smEfficiencyPieces(std::vector<SmEfficiencyPiece> kernels);
// The same pieces, in the same order, handed to `visit` one by one instead of kept.
void visitSmEfficiencyPieces(std::vector<SmEfficiencyPiece> kernels,
                             const std::function<void(const SmEfficiencyPiece&)>& visit);

} // namespace ts
