#include "analysis/KernelTypes.h"

#include <algorithm>
#include <cmath>
#include <map>

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

// The union of each type's intervals, as start and end edges.
std::vector<Edge> unionEdges(const DeviceActivities& activity) {
    std::vector<Edge> edges;
    for (KernelType type : kTypes) {
        std::vector<std::pair<int64_t, int64_t>> spans;
        for (const DeviceActivity& a : activity.events)
            if (a.type == type) spans.emplace_back(a.start, a.end);
        std::sort(spans.begin(), spans.end());
        for (size_t i = 0; i < spans.size();) {
            const int64_t start = spans[i].first;
            int64_t end = spans[i].second;
            for (++i; i < spans.size() && spans[i].first <= end; ++i)
                end = std::max(end, spans[i].second);
            edges.push_back({start, +1, bitOf(type)});
            edges.push_back({end, -1, bitOf(type)});
        }
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.t < b.t; });
    return edges;
}

std::vector<TypeOverlap> overlapsOf(const DeviceActivities& activity) {
    std::map<uint8_t, int64_t> by_types;
    // Counts, not bits: an interval that HTA's rounding left with its end
    // before its start ends before it begins, and must leave nothing behind.
    int running[std::size(kTypes)] = {};
    const std::vector<Edge> edges = unionEdges(activity);
    for (size_t i = 0; i < edges.size(); ++i) {
        for (size_t t = 0; t < std::size(kTypes); ++t)
            if (edges[i].bit == (1u << t)) running[t] += edges[i].delta;
        uint8_t types = 0;
        for (size_t t = 0; t < std::size(kTypes); ++t)
            if (running[t] > 0) types = uint8_t(types | (1u << t));
        if (types != 0 && i + 1 < edges.size()) by_types[types] += edges[i + 1].t - edges[i].t;
    }
    std::vector<TypeOverlap> out;
    for (const auto& [types, ns] : by_types)
        if (ns > 0) out.push_back({types, ns});
    std::stable_sort(out.begin(), out.end(),
                     [](const TypeOverlap& a, const TypeOverlap& b) { return a.ns > b.ns; });
    return out;
}

std::vector<KernelTypeRow> kernelsOf(const Trace& trace, const DeviceActivities& activity) {
    std::map<std::pair<KernelType, std::string>, std::vector<int64_t>> by_name;
    for (const DeviceActivity& a : activity.events)
        if (a.type != KernelType::Other)
            by_name[{a.type, trace.nameOf(trace.events[size_t(a.event)])}].push_back(a.end -
                                                                                     a.start);
    std::vector<KernelTypeRow> rows;
    for (const auto& [key, durations] : by_name) {
        KernelTypeRow r{key.second, key.first, int64_t(durations.size())};
        r.max_ns = *std::max_element(durations.begin(), durations.end());
        r.min_ns = *std::min_element(durations.begin(), durations.end());
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

KernelTypeBreakdown kernelTypeBreakdown(const Trace& trace, const DeviceActivities& activity) {
    KernelTypeBreakdown out;
    out.rank = activity.rank;
    out.overlaps = overlapsOf(activity);
    out.kernels = kernelsOf(trace, activity);
    return out;
}

} // namespace ts
