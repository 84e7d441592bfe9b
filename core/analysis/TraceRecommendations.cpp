#include "analysis/TraceRecommendations.h"

#include <cmath>
#include <cstdio>
#include <map>

namespace ts {

namespace {

std::string fixed(double v, int decimals) {
    char text[64];
    std::snprintf(text, sizeof(text), "%.*f", decimals, v);
    return text;
}

std::string idList(const std::vector<int32_t>& ids) {
    std::string out;
    for (size_t i = 0; i < ids.size(); ++i) {
        if (i > 0) out += i + 1 == ids.size() ? " and " : ", ";
        out += std::to_string(ids[i]);
    }
    return out;
}

} // namespace

std::vector<TraceRecommendation> recommendForTrace(const Trace& trace, const GpuOverview& overview,
                                                   const GpuMetrics& metrics) {
    std::vector<TraceRecommendation> out;
    if (overview.steps.empty()) return out;
    const double data = overview.share(GpuRole::DataLoader);
    if (data > 0.05)
        out.push_back(
            {"dataloader", "This run has high time cost on input data loading. " +
                               fixed(100 * data, 1) +
                               "% of the step time is in DataLoader. You could try to set "
                               "num_workers on DataLoader's construction and enable multi-process "
                               "data loading (https://pytorch.org/docs/stable/"
                               "data.html#single-and-multi-process-data-loading)."});
    if (overview.use_dp && overview.used_devices.size() > 1)
        out.push_back({"ddp", "It is recommended to use DistributedDataParallel instead of "
                              "DataParallel to do multi-GPU training (" +
                                  std::to_string(overview.used_devices.size()) +
                                  " GPUs used; https://pytorch.org/docs/stable/notes/"
                                  "cuda.html#cuda-nn-ddp-instead)."});
    if (overview.use_ddp && !overview.nccl) {
        for (const DeviceProperties& d : trace.kineto.devices) {
            if (d.compute_major * 10 + d.compute_minor < 35) continue;
            out.push_back({"nccl", "NCCL backend is currently the fastest and highly "
                                   "recommended backend when using DDP for training."});
            break;
        }
    }
    const double comm = overview.share(GpuRole::Communication);
    if (comm > 0.1)
        out.push_back(
            {"communication",
             "This run has high time cost on communication. " + fixed(100 * comm, 1) +
                 "% of the step time is in communication. You could try Gradient Compression "
                 "(https://pytorch.org/docs/stable/ddp_comm_hooks.html) or Gradient "
                 "Accumulation or increase the batch size. Note: Gradient accumulation will "
                 "increase global effective batch size, which may hurt model convergence and "
                 "accuracy. For such case, you may want to evaluate the LAMB optimizer "
                 "(https://nvidia.github.io/apex/optimizers.html#apex.optimizers.FusedLAMB)."});
    std::vector<int32_t> low;
    std::string low_values;
    for (const GpuDeviceSummary& g : metrics.gpus) {
        if (g.utilization >= 0.5) continue;
        low.push_back(g.id);
        low_values += (low_values.empty() ? "" : ", ") + fixed(100 * g.utilization, 2) + "%";
    }
    if (!low.empty())
        out.push_back({"gpu_utilization",
                       (low.size() == 1 ? "GPU " : "GPUs ") + idList(low) +
                           (low.size() == 1 ? " has" : " have") + " low utilization (" +
                           low_values +
                           "). You could try to increase batch size to improve. Note: "
                           "Increasing batch size may affect the speed and stability of model "
                           "convergence."});
    const auto& devices = trace.kineto.devices;
    if (!devices.empty() && devices[0].compute_major >= 7 && metrics.tc_used_ratio &&
        *metrics.tc_used_ratio == 0.0 && metrics.tc_eligible_ops_kernel_ratio > 0)
        out.push_back(
            {"amp", "Kernels with " +
                        fixed(std::nearbyint(100 * metrics.tc_eligible_ops_kernel_ratio), 0) +
                        "% time are launched by Tensor Cores eligible operators. You "
                        "could enable Automatic Mixed Precision "
                        "(https://pytorch.org/docs/stable/amp.html) to speedup by "
                        "using FP16."});
    if (!devices.empty()) {
        // Peak "Total Allocated" per GPU against its memory (CPU rows are
        // not checked: the plugin compares them with the last GPU by mistake).
        std::map<int32_t, int64_t> peak;
        for (const DeviceMemoryEvent& m : trace.kineto.memory)
            if (m.device_type == 1 && m.total_allocated >= 0)
                peak[m.device_id] = std::max(peak[m.device_id], m.total_allocated);
        for (const auto& [id, bytes] : peak) {
            if (id < 0 || static_cast<size_t>(id) >= devices.size()) continue;
            const double total = static_cast<double>(devices[id].total_global_mem);
            if (total <= 0 || static_cast<double>(bytes) <= 0.9 * total) continue;
            out.push_back({"memory", "Device memory usage is at the limit of device memory "
                                     "capacity (" +
                                         fixed(100 * static_cast<double>(bytes) / total, 1) +
                                         "% of " + fixed(total / (1024.0 * 1024 * 1024), 1) +
                                         "GB on GPU" + std::to_string(id) +
                                         "). To get better value of your GPU or to use larger "
                                         "batch size for training, please refer to Gradient "
                                         "Checkpoint or Automatic Mixed Precision."});
            break;
        }
    }
    return out;
}

} // namespace ts
