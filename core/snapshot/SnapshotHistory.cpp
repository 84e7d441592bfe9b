#include "snapshot/SnapshotHistory.h"

#include <memory>
#include <mutex>

#include "snapshot/AddressMap.h"

namespace ts {

struct SnapshotHistoryCache {
    struct Entry {
        const AllocEvent* events = nullptr; // what it was made from
        size_t size = 0;
        std::unique_ptr<DeviceHistory> history;
    };
    std::mutex mutex;
    std::vector<Entry> devices;
};

std::shared_ptr<SnapshotHistoryCache> newSnapshotHistoryCache() {
    return std::make_shared<SnapshotHistoryCache>();
}

namespace {

int64_t reservedDelta(const AllocEvent& e) {
    switch (e.action) {
    case AllocAction::SegmentAlloc:
    case AllocAction::SegmentMap:
        return e.size;
    case AllocAction::SegmentFree:
    case AllocAction::SegmentUnmap:
        return -e.size;
    default:
        return 0;
    }
}

// The dump's live blocks that no alloc of the trace left open: alive since
// before the trace (MemoryViz's "initially allocated").
void addBlocksFromBeforeTrace(const MemorySnapshot& s, int device, const AddressMap& open,
                              int64_t entries, std::vector<ActiveBand>& before) {
    for (const SnapshotSegment& seg : s.segments) {
        if (seg.device != device) continue;
        for (uint32_t b = seg.first_block; b < seg.first_block + seg.block_count; ++b) {
            const SnapshotBlock& block = s.blocks[b];
            if (block.state == BlockState::ActiveAllocated && !open.contains(block.address))
                before.push_back(
                    {block.requested_size, block.stack, ActiveBand::kBeforeTrace, entries});
        }
    }
}

int64_t reservedAtDump(const MemorySnapshot& s, int device) {
    int64_t total = 0;
    for (const SnapshotSegment& seg : s.segments)
        if (seg.device == device) total += seg.total_size;
    return total;
}

// One pass: an alloc opens a band, only free_completed ends one (a block freed
// with record_stream lives until its free completes); a completed free of a
// block the trace never allocated was alive before it. The curves are summed
// from zero and moved by what was there before once that is known.
std::unique_ptr<DeviceHistory> replay(const MemorySnapshot& s, int device) {
    auto h = std::make_unique<DeviceHistory>();
    const auto n = int64_t(s.traceSize(device));
    const AllocEvent* events = n ? s.traceBegin(device) : nullptr;
    std::vector<ActiveBand> before, made;
    AddressMap open; // addr -> its band in `made`
    h->curve.allocated.resize(size_t(n));
    h->curve.reserved.resize(size_t(n));
    int64_t allocated = 0, reserved = 0;
    for (int64_t i = 0; i < n; ++i) {
        const AllocEvent& e = events[i];
        if (e.action == AllocAction::Alloc) {
            open.insert(e.addr, made.size());
            made.push_back({e.size, e.stack, i, n});
            allocated += e.size;
        } else if (e.action == AllocAction::FreeCompleted) {
            uint64_t band = 0;
            if (open.take(e.addr, &band)) {
                made[band].end = i;
                allocated -= made[band].size;
            } else {
                before.push_back({e.size, e.stack, ActiveBand::kBeforeTrace, i});
                allocated -= e.size;
            }
        } else if (e.action == AllocAction::Oom) {
            ++h->ooms;
        }
        reserved += reservedDelta(e);
        h->curve.allocated[size_t(i)] = allocated;
        h->curve.reserved[size_t(i)] = reserved;
    }
    addBlocksFromBeforeTrace(s, device, open, n, before);
    for (const ActiveBand& b : before)
        h->before_trace_bytes += b.size;
    const int64_t reserved_before = reservedAtDump(s, device) - reserved;
    h->peak_allocated_bytes = h->before_trace_bytes;
    h->peak_reserved_bytes = reserved_before;
    for (int64_t i = 0; i < n; ++i) {
        int64_t& a = h->curve.allocated[size_t(i)];
        int64_t& r = h->curve.reserved[size_t(i)];
        a += h->before_trace_bytes;
        r += reserved_before;
        h->peak_reserved_bytes = std::max(h->peak_reserved_bytes, r);
        if (a > h->peak_allocated_bytes) {
            h->peak_allocated_bytes = a;
            h->peak_entry = i;
            h->peak_time_us = events[i].time_us;
        }
    }
    h->lifetimes = std::move(before);
    h->lifetimes.insert(h->lifetimes.end(), made.begin(), made.end());
    return h;
}

} // namespace

const DeviceHistory& deviceHistory(const MemorySnapshot& s, int device) {
    static const DeviceHistory kNone;
    if (device < 0 || !s.history.cache) return kNone;
    SnapshotHistoryCache& cache = *s.history.cache;
    const std::lock_guard<std::mutex> lock(cache.mutex);
    if (cache.devices.size() <= size_t(device)) cache.devices.resize(size_t(device) + 1);
    SnapshotHistoryCache::Entry& e = cache.devices[size_t(device)];
    const AllocEvent* events = s.traceSize(device) ? s.traceBegin(device) : nullptr;
    if (!e.history || e.events != events || e.size != s.traceSize(device)) {
        e.history = replay(s, device);
        e.events = events;
        e.size = s.traceSize(device);
    }
    return *e.history;
}

} // namespace ts
