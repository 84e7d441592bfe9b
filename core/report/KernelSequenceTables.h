#pragma once
// The frequent kernel sequences (analysis/KernelSequences.h) as tables and
// JSON: `trace-stats --view kernel-sequences` prints them and the GUI's
// Kernel Sequences view shows them.
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/KernelSequences.h"
#include "report/TableSpec.h"

namespace ts {

// A row per rank and sequence: its number, operator, kernels, count, CPU and
// GPU time, GPU span, delays, and the pattern (HTA's columns and more).
table::TableSpec kernelSequenceTable(const std::vector<KernelSequences>& ranks);
// A row per rank, sequence and position: the kernel, its time and its launch
// delay, summed and per call.
table::TableSpec sequenceKernelTable(const std::vector<KernelSequences>& ranks);

// {"operator", "min_pattern_len", "ranks": [{"rank", "calls", "sequences":
//  [{"sequence", "operator", "count", "cpu_time_us", "gpu_time_us", ...,
//  "pattern", "kernels": [{"position", "name", "gpu_time_us", "delay_us"}]}]}]}
nlohmann::json kernelSequencesJson(const std::vector<KernelSequences>& ranks);

} // namespace ts
