#include "analysis/MemoryBandwidth.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ts {
namespace {

// Sums below this are what is left of +a +b -a -b in floating point: zero.
constexpr double kResidueGbps = 1e-9;

// A copy of zero duration is held for a microsecond (HTA's rule: its
// bandwidth must not end before it starts).
constexpr int64_t kZeroDurationNs = 1000;

double bandwidthOf(const TraceEvent& e, int64_t dur_ns) {
    if (e.gbps > 0) return e.gbps;
    return dur_ns > 0 && e.bytes > 0 ? e.bytes / double(dur_ns) : 0; // bytes per ns = GB/s
}

struct Edge {
    int64_t t;
    double gbps; // + at a start, - at an end
};

MemoryKindBandwidth kindSeries(std::string kind, std::vector<Edge>& edges) {
    MemoryKindBandwidth k;
    k.kind = std::move(kind);
    // Ends first at equal times: a copy that ends as the next begins does
    // not overlap it (HTA's order there is arbitrary).
    std::stable_sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
        return a.t != b.t ? a.t < b.t : a.gbps < b.gbps;
    });
    double sum = 0, weighted = 0;
    std::vector<double> positive;
    for (size_t i = 0; i < edges.size(); ++i) {
        sum += edges[i].gbps;
        if (std::abs(sum) < kResidueGbps) sum = 0;
        k.series.push_back({edges[i].t, sum});
        if (sum > 0) positive.push_back(sum);
        if (i + 1 < edges.size() && sum > 0) {
            const int64_t held = edges[i + 1].t - edges[i].t;
            k.busy_ns += held;
            weighted += sum * double(held);
        }
    }
    k.stats = describe(std::move(positive));
    k.busy_mean_gbps = k.busy_ns > 0 ? weighted / double(k.busy_ns) : 0;
    return k;
}

} // namespace

std::string memoryKindOf(std::string_view name) {
    if (name.rfind("Memset", 0) == 0) return "Memset";
    if (name.rfind("Memcpy", 0) == 0) return std::string(name.substr(0, 11));
    return "Memcpy Unknown";
}

MemoryBandwidth memoryBandwidth(const Trace& trace, const DeviceActivities& activity) {
    MemoryBandwidth out;
    out.rank = activity.rank;
    std::map<std::string, std::vector<Edge>> edges;
    std::map<std::string, std::pair<int64_t, double>> totals; // copies, bytes
    for (const DeviceActivity& a : activity.events) {
        if (a.type != KernelType::Memory) continue;
        const TraceEvent e = trace.events[size_t(a.event)];
        const int64_t end = a.end == a.start ? a.start + kZeroDurationNs : a.end;
        const double gbps = bandwidthOf(e, e.dur_ns);
        const std::string kind = memoryKindOf(trace.nameOf(e));
        auto& total = totals[kind];
        ++total.first;
        total.second += e.bytes;
        if (gbps <= 0) {
            ++out.without_bandwidth;
            continue;
        }
        edges[kind].push_back({a.start, gbps});
        edges[kind].push_back({end, -gbps});
    }
    for (auto& [kind, list] : edges) {
        MemoryKindBandwidth k = kindSeries(kind, list);
        k.copies = totals[kind].first;
        k.bytes = totals[kind].second;
        out.kinds.push_back(std::move(k));
    }
    return out;
}

} // namespace ts
