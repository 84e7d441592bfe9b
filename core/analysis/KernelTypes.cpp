#include "analysis/KernelTypes.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/RangeSet.h"

namespace ts {
namespace {

constexpr KernelType kTypes[] = {KernelType::Computation, KernelType::Communication,
                                 KernelType::Memory};

uint8_t bitOf(KernelType type) {
    for (size_t i = 0; i < std::size(kTypes); ++i)
        if (kTypes[i] == type) return uint8_t(1u << i);
    return 0;
}

struct Edge {
    int64_t t;
    int delta; // +1 start, -1 end
    uint8_t bit;
};

// The union of each type's intervals (mergeRanges: touching ones joined as
// in HTA; the empty and negative ones HTA's rounding makes contribute
// nothing there either), as start and end edges.
std::vector<Edge> unionEdges(const DeviceActivities& activity) {
    std::vector<Edge> edges;
    for (KernelType type : kTypes) {
        RangeList spans;
        for (const DeviceActivity& a : activity.events)
            if (a.type == type) spans.emplace_back(a.start, a.end);
        for (const TimeRange& r : mergeRanges(std::move(spans))) {
            edges.push_back({r.first, +1, bitOf(type)});
            edges.push_back({r.second, -1, bitOf(type)});
        }
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.t < b.t; });
    return edges;
}

std::vector<TypeOverlap> overlapsOf(const DeviceActivities& activity) {
    std::map<uint8_t, int64_t> by_types;
    // A type's merged ranges are disjoint, so a bit per type says which run.
    uint8_t running = 0;
    const std::vector<Edge> edges = unionEdges(activity);
    for (size_t i = 0; i < edges.size(); ++i) {
        running =
            edges[i].delta > 0 ? uint8_t(running | edges[i].bit) : uint8_t(running & ~edges[i].bit);
        if (running != 0 && i + 1 < edges.size()) by_types[running] += edges[i + 1].t - edges[i].t;
    }
    std::vector<TypeOverlap> out;
    for (const auto& [types, ns] : by_types)
        if (ns > 0) out.push_back({types, ns});
    std::stable_sort(out.begin(), out.end(),
                     [](const TypeOverlap& a, const TypeOverlap& b) { return a.ns > b.ns; });
    return out;
}

std::vector<KernelTypeRow> kernelsOf(const Trace& trace, const DeviceActivities& activity) {
    // Each kernel's runs: (duration, event).
    std::map<std::pair<KernelType, std::string>, std::vector<std::pair<int64_t, int32_t>>> by_name;
    for (const DeviceActivity& a : activity.events)
        if (a.type != KernelType::Other)
            by_name[{a.type, trace.nameOf(trace.events[size_t(a.event)])}].push_back(
                {a.end - a.start, a.event});
    std::vector<KernelTypeRow> rows;
    std::vector<int64_t> durations;
    for (const auto& [key, runs] : by_name) {
        KernelTypeRow r{key.second, key.first, int64_t(runs.size())};
        const auto longest = std::max_element(runs.begin(), runs.end());
        r.max_ns = longest->first;
        r.longest = longest->second;
        r.min_ns = std::min_element(runs.begin(), runs.end())->first;
        durations.clear();
        for (const auto& run : runs)
            durations.push_back(run.first);
        for (int64_t d : durations)
            r.total_ns += d;
        r.mean_ns = double(r.total_ns) / double(r.count);
        double squares = 0;
        for (int64_t d : durations)
            squares += (double(d) - r.mean_ns) * (double(d) - r.mean_ns);
        r.std_ns = r.count > 1 ? std::sqrt(squares / double(r.count - 1)) : 0;
        rows.push_back(std::move(r));
    }
    std::stable_sort(rows.begin(), rows.end(), [](const KernelTypeRow& a, const KernelTypeRow& b) {
        return a.type != b.type ? a.type < b.type : a.total_ns > b.total_ns;
    });
    return rows;
}

} // namespace

std::string overlapLabel(uint8_t types) {
    static const char* const kNames[] = {"COMPUTATION", "COMMUNICATION", "MEMORY"};
    std::string out;
    for (size_t i = 0; i < std::size(kNames); ++i)
        if (types & (1u << i)) out += (out.empty() ? "" : " overlapping ") + std::string(kNames[i]);
    return out;
}

int64_t KernelTypeBreakdown::totalNs() const {
    int64_t total = 0;
    for (const TypeOverlap& o : overlaps)
        total += o.ns;
    return total;
}

int64_t KernelTypeBreakdown::communicationNs() const {
    int64_t total = 0;
    for (const TypeOverlap& o : overlaps)
        if (o.types & 2) total += o.ns;
    return total;
}

int64_t KernelTypeBreakdown::overlappedCommunicationNs() const {
    int64_t total = 0;
    for (const TypeOverlap& o : overlaps)
        if ((o.types & 3) == 3) total += o.ns;
    return total;
}

double KernelTypeBreakdown::commCompOverlap() const {
    const int64_t communication = communicationNs();
    return communication > 0 ? double(overlappedCommunicationNs()) / double(communication)
                             : std::nan("");
}

KernelTypeBreakdown kernelTypeBreakdown(const Trace& trace, const DeviceActivities& activity) {
    KernelTypeBreakdown out;
    out.rank = activity.rank;
    out.overlaps = overlapsOf(activity);
    out.kernels = kernelsOf(trace, activity);
    return out;
}

} // namespace ts
