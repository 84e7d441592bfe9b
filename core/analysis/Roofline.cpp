#include "analysis/Roofline.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "util/NumberText.h"

namespace ts {
namespace {

bool isTensorCoreCandidate(const std::string& name) {
    for (const char* part : {"conv", "Conv", "mm", "Mm", "matmul", "linear", "Linear"})
        if (name.find(part) != std::string::npos) return true;
    return false;
}

} // namespace

double MachinePeaks::ridge(bool low_precision) const {
    return bandwidth_gbs > 0 ? computeRoof(low_precision) / bandwidth_gbs : 0;
}

const char* toString(Bound bound) {
    return bound == Bound::Memory ? "memory" : "compute";
}

double attainableGflops(const MachinePeaks& peaks, double intensity, bool low_precision) {
    return std::min(peaks.computeRoof(low_precision), peaks.bandwidth_gbs * intensity);
}

Roofline buildRoofline(const MachinePeaks& peaks, const std::vector<KernelCost>& costs) {
    if (!(peaks.fp32_gflops > 0) || !(peaks.bandwidth_gbs > 0))
        throw std::invalid_argument("the roofline needs a positive peak compute (GFLOP/s) and "
                                    "memory bandwidth (GB/s); got " +
                                    numberText("%g", peaks.fp32_gflops) + " GFLOP/s and " +
                                    numberText("%g", peaks.bandwidth_gbs) + " GB/s");
    Roofline r;
    r.peaks = peaks;
    double total_ns = 0;
    size_t unplaced = 0;
    for (const auto& c : costs) {
        if (!(c.flops > 0 && c.bytes > 0 && c.time_ns > 0)) {
            ++unplaced;
            continue;
        }
        RooflinePoint p;
        p.cost = c;
        p.intensity = c.flops / c.bytes;
        p.achieved_gflops = c.flops / c.time_ns; // FLOP per ns = GFLOP/s
        p.roof_gflops = attainableGflops(peaks, p.intensity, c.low_precision);
        p.efficiency = p.roof_gflops > 0 ? p.achieved_gflops / p.roof_gflops : 0;
        p.bound = p.intensity < peaks.ridge(c.low_precision) ? Bound::Memory : Bound::Compute;
        total_ns += c.time_ns;
        r.points.push_back(p);
    }
    for (auto& p : r.points)
        p.time_share = total_ns > 0 ? p.cost.time_ns / total_ns : 0;
    std::stable_sort(r.points.begin(), r.points.end(),
                     [](const auto& a, const auto& b) { return a.cost.time_ns > b.cost.time_ns; });
    if (unplaced > 0)
        r.notes.push_back(std::to_string(unplaced) + " of " + std::to_string(costs.size()) +
                          " operators have no FLOP or byte estimate (or no time) and are not "
                          "placed");
    return r;
}

std::vector<KernelCost> costsFromOpTable(const OpTable& table, bool low_precision_run) {
    std::vector<KernelCost> out;
    for (const auto& row : table.rows) {
        KernelCost c;
        c.name = row.name;
        c.calls = row.calls;
        c.flops = row.flops;
        c.bytes = row.bytes;
        c.time_ns = double(row.self_device_ns > 0 ? row.self_device_ns : row.self_cpu_ns);
        c.low_precision = low_precision_run && isTensorCoreCandidate(row.name);
        out.push_back(c);
    }
    return out;
}

} // namespace ts
