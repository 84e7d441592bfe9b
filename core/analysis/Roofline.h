#pragma once
// The roofline model: a machine's peak compute and memory bandwidth, and
// operators (or GPU kernels) placed by arithmetic intensity (FLOP per byte
// moved) and achieved FLOP/s. Left of the ridge point an operator can at best
// reach bandwidth x intensity (memory-bound), right of it the compute peak.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/OpStats.h"

namespace ts {

struct MachinePeaks {
    double fp32_gflops = 0;    // GFLOP/s
    double low_gflops = 0;     // reduced precision (bf16 on CPU, fp16 on CUDA); 0 = unknown
    std::string low_precision; // "bf16" or "fp16" when low_gflops is set
    double bandwidth_gbs = 0;  // GB/s (10^9 bytes per second)
    std::string device;        // "cpu", "cuda:0", or what the user says it was
    std::string source;        // "measured", "entered"
    std::vector<std::string> notes;

    // FLOP per byte where the bandwidth roof meets the compute roof.
    double ridge(bool low_precision = false) const;
    double computeRoof(bool low_precision) const {
        return low_precision && low_gflops > 0 ? low_gflops : fp32_gflops;
    }
};

// What one operator or kernel did, summed over its calls.
struct KernelCost {
    std::string name;
    int64_t calls = 0;
    double flops = 0;
    double bytes = 0;
    double time_ns = 0;
    bool low_precision = false; // measured against the reduced-precision roof
};

enum class Bound { Memory, Compute };
const char* toString(Bound bound);

struct RooflinePoint {
    KernelCost cost;
    double intensity = 0;       // FLOP / byte
    double achieved_gflops = 0; // flops / time
    double roof_gflops = 0;     // attainable at this intensity
    double efficiency = 0;      // achieved / roof
    double time_share = 0;      // of all placed time
    Bound bound = Bound::Memory;
};

struct Roofline {
    MachinePeaks peaks;
    std::vector<RooflinePoint> points; // by time, descending
    std::vector<std::string> notes;    // e.g. operators that could not be placed
};

// min(peak compute, bandwidth x intensity).
double attainableGflops(const MachinePeaks& peaks, double intensity, bool low_precision);
// Places every cost with positive flops, bytes and time; the others are
// counted in a note. Throws std::invalid_argument when the peaks are not positive.
Roofline buildRoofline(const MachinePeaks& peaks, const std::vector<KernelCost>& costs);

// Operator rows with a FLOP and byte estimate; self device time when the row
// has any, else self CPU time. With `low_precision_run` (bf16/fp16 autocast),
// convolutions and matrix multiplications use the reduced-precision roof.
std::vector<KernelCost> costsFromOpTable(const OpTable& table, bool low_precision_run);

} // namespace ts
