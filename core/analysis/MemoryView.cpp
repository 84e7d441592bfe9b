#include "analysis/MemoryView.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "analysis/LaunchLinks.h"
#include "analysis/RunningAllocated.h"

namespace ts {

namespace {

// Python's dict as the plugin uses it for open allocations and unmatched
// releases: a key keeps its first position when its value is replaced.
class OrderedByAddr {
public:
    void put(int64_t addr, size_t record) {
        auto [it, added] = seq_.emplace(addr, next_);
        if (added) ++next_;
        values_[it->second] = record;
    }
    bool take(int64_t addr, size_t& record) {
        auto it = seq_.find(addr);
        if (it == seq_.end()) return false;
        record = values_[it->second];
        values_.erase(it->second);
        seq_.erase(it);
        return true;
    }
    const std::map<uint64_t, size_t>& inOrder() const { return values_; }

private:
    std::unordered_map<int64_t, uint64_t> seq_;
    std::map<uint64_t, size_t> values_;
    uint64_t next_ = 0;
};

// All devices at once: the plugin matches a release with the open
// allocation at its address whatever the device, and files the pair under
// the allocation's device.
std::vector<std::vector<MemoryAllocation>> allocationsByDevice(const Trace& trace,
                                                               const DeviceOpTree& tree,
                                                               const MemoryRecords& all,
                                                               const MemoryTimeRange& range) {
    std::vector<std::vector<MemoryAllocation>> out(all.devices.size());
    auto row = [&](const MemoryRecord& r, int64_t bytes, std::optional<int64_t> at,
                   std::optional<int64_t> released) {
        out[r.device].push_back(
            MemoryAllocation{memoryOpLabel(trace, tree, all, r), bytes, at, released});
    };
    OrderedByAddr open, unmatched_releases;
    for (size_t i = 0; i < all.records.size(); ++i) {
        const MemoryRecord& r = all.records[i];
        if (!range.contains(r.t_ns)) continue;
        if (all.own_samples) { // no addresses: every allocation, never released
            if (r.bytes > 0) row(r, r.bytes, r.t_ns, std::nullopt);
            continue;
        }
        if (r.addr < 0) continue;
        size_t alloc = 0;
        if (r.bytes > 0)
            open.put(r.addr, i);
        else if (open.take(r.addr, alloc))
            row(all.records[alloc], -r.bytes, all.records[alloc].t_ns, r.t_ns);
        else
            unmatched_releases.put(r.addr, i);
    }
    for (const auto& entry : open.inOrder()) {
        const MemoryRecord& r = all.records[entry.second];
        row(r, r.bytes, r.t_ns, std::nullopt);
    }
    for (const auto& entry : unmatched_releases.inOrder()) {
        const MemoryRecord& r = all.records[entry.second];
        row(r, -r.bytes, std::nullopt, r.t_ns);
    }
    return out;
}

void keepPeak(DeviceMemoryView& view) {
    for (size_t i = 0; i < view.curve.size(); ++i) {
        if (i == 0 || view.curve[i].allocated > view.peak_allocated) {
            view.peak_allocated = view.curve[i].allocated;
            view.peak_t_ns = view.curve[i].t_ns;
        }
    }
}

} // namespace

std::vector<MemoryPoint> memoryCurve(const MemoryRecords& all, int32_t device,
                                     bool* net_since_start) {
    std::vector<MemoryPoint> curve;
    for (const MemoryRecord& r : all.records) {
        if (r.device != device) continue;
        const bool known = all.own_samples || (r.addr >= 0 && r.allocated >= 0 && r.reserved >= 0);
        if (known) curve.push_back(MemoryPoint{r.t_ns, r.allocated, r.reserved});
    }
    if (net_since_start) *net_since_start = false;
    if (!curve.empty()) return curve;
    RunningAllocated running;
    for (const MemoryRecord& r : all.records)
        if (r.device == device)
            curve.push_back(MemoryPoint{r.t_ns, running.after(r.bytes, r.allocated), -1});
    // Records with totals but no address still give real levels; only a running sum is "net".
    if (net_since_start) *net_since_start = running.fromDeltas();
    return curve;
}

std::vector<MemoryAllocation> memoryAllocations(const Trace& trace, const DeviceOpTree& tree,
                                                const MemoryRecords& all, int32_t device,
                                                const MemoryTimeRange& range) {
    if (device < 0 || static_cast<size_t>(device) >= all.devices.size()) return {};
    return allocationsByDevice(trace, tree, all, range)[device];
}

std::vector<MemoryPoint> stepPlot(const std::vector<MemoryPoint>& curve) {
    std::vector<MemoryPoint> out;
    for (size_t i = 0; i < curve.size(); ++i) {
        if (i > 0)
            out.push_back(
                MemoryPoint{curve[i].t_ns, curve[i - 1].allocated, curve[i - 1].reserved});
        out.push_back(curve[i]);
    }
    return out;
}

std::vector<MemoryPoint> downsampleCurve(const std::vector<MemoryPoint>& curve, size_t max_points) {
    max_points = std::max<size_t>(max_points, 4);
    if (curve.size() <= max_points) return curve;
    const size_t inner = curve.size() - 2, buckets = (max_points - 2) / 2;
    std::vector<MemoryPoint> out{curve.front()};
    for (size_t b = 0; b < buckets; ++b) {
        const size_t first = 1 + inner * b / buckets, last = 1 + inner * (b + 1) / buckets;
        if (first == last) continue;
        size_t lo = first, hi = first;
        for (size_t i = first; i < last; ++i) {
            if (curve[i].allocated < curve[lo].allocated) lo = i;
            if (curve[i].allocated > curve[hi].allocated) hi = i; // the first highest
        }
        out.push_back(curve[std::min(lo, hi)]);
        if (lo != hi) out.push_back(curve[std::max(lo, hi)]);
    }
    out.push_back(curve.back());
    return out;
}

MemoryView computeMemoryView(const Trace& trace, const DeviceOpTree& tree,
                             const MemoryTimeRange& range) {
    MemoryView view;
    const MemoryRecords all = collectMemoryRecords(trace, tree);
    if (all.empty()) return view;
    view.own_samples = all.own_samples;
    std::vector<std::vector<MemoryAllocation>> allocations =
        allocationsByDevice(trace, tree, all, range);
    for (size_t d = 0; d < all.devices.size(); ++d) {
        DeviceMemoryView device;
        device.name = all.devices[d];
        device.curve = memoryCurve(all, static_cast<int32_t>(d), &device.net_since_start);
        keepPeak(device);
        device.operators = memoryOpStats(trace, tree, all, static_cast<int32_t>(d), range);
        device.allocations = std::move(allocations[d]);
        view.devices.push_back(std::move(device));
    }
    return view;
}

MemoryView computeMemoryView(const Trace& trace, const MemoryTimeRange& range,
                             const GpuAnalysisOptions& options) {
    const KinetoEvents events = collectKinetoEvents(trace, options);
    const LaunchLinks links = linkLaunches(trace, events);
    return computeMemoryView(trace, buildDeviceOpTree(trace, events, links, options), range);
}

} // namespace ts
