#pragma once
// The Kernels view of a Kineto trace: every kernel grouped by name, and the
// kernels the operators launched grouped by kernel, operator and launch
// configuration (grid, block, registers, shared memory).
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/DeviceOpTree.h"
#include "analysis/TimeWindow.h"

namespace ts {

struct KernelRow {
    std::string name;
    bool tensor_cores = false; // the kernel runs on Tensor Cores (by name)
    int64_t calls = 0;
    int64_t total_ns = 0, min_ns = 0, max_ns = 0;
    double blocks_per_sm = 0; // duration-weighted mean, missing counted as 0
    double occupancy = 0;     // duration-weighted mean est. achieved occupancy, %
    double meanNs() const { return calls ? static_cast<double>(total_ns) / calls : 0; }
};

struct KernelOpRow : KernelRow {
    std::string op_name;       // the op owning the launch ("ProfilerStep#5", "CallTreeRoot")
    std::string grid, block;   // "[16, 1, 1]", "None" when missing
    std::string registers;     // registers per thread, "0" when missing
    std::string shared_memory; // bytes, "0" when missing
    bool op_tc_eligible = false;
};

struct KernelTables {
    std::vector<KernelRow> by_name; // all kernels, by total time descending
    std::vector<KernelOpRow> by_op; // kernels linked to ops, by total time descending
    bool has_blocks_per_sm = false; // some kernel has it (with a device)
    bool has_occupancy = false;
};

// plugin_compatible: Tensor Core kernels by the plugin's name list alone;
// `window`: the kernels that start in it (default: all).
KernelTables computeKernelTables(const Trace& trace, const KinetoEvents& events,
                                 const LaunchLinks& links, const DeviceOpTree& tree,
                                 bool plugin_compatible, const TimeWindow& window = {});

} // namespace ts
