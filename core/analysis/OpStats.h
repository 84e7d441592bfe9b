#pragma once
// torch.profiler key_averages()-style operator statistics over a Trace.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/TimeWindow.h"
#include "trace/Trace.h"

namespace ts {

enum class OpGrouping { Name, NameAndShapes };
enum class OpScope { All, Forward, Backward };

struct OpStat {
    std::string name;
    std::string shapes;    // only when grouped by shapes
    bool backward = false; // autograd node (or op called from one)
    int64_t calls = 0;
    int64_t self_cpu_ns = 0;
    int64_t cpu_total_ns = 0;
    int64_t self_device_ns = 0;
    int64_t device_total_ns = 0;
    int64_t cpu_mem_bytes = 0;      // allocated inside the op, children included
    int64_t self_cpu_mem_bytes = 0; // allocated by the op itself
    double flops = 0;
    double bytes = 0;

    double avgCpuNs() const { return calls ? double(cpu_total_ns) / calls : 0; }
    // Achieved GFLOP/s over self time (device time when there is any).
    double gflopsPerSec() const;
    double arithmeticIntensity() const { return bytes > 0 ? flops / bytes : 0; }
};

struct OpTable {
    std::vector<OpStat> rows;      // sorted by self CPU time, descending
    int64_t total_self_cpu_ns = 0; // denominators for the % columns
    int64_t total_self_device_ns = 0;
};

// `window`: the operators that start in it (default: all).
OpTable computeOpStats(const Trace& trace, OpGrouping grouping = OpGrouping::Name,
                       OpScope scope = OpScope::All, const TimeWindow& window = {});

} // namespace ts
