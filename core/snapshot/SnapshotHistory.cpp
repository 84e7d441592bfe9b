#include "snapshot/SnapshotHistory.h"

#include <algorithm>
#include <memory>
#include <mutex>

#include "snapshot/AddressMap.h"

namespace ts {

struct SnapshotHistoryCache {
    struct Entry {
        const AllocEvent* events = nullptr; // what it was made from
        size_t size = 0;
        std::unique_ptr<DeviceHistory> history;
        std::unique_ptr<MemoryCurve> curve;
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
// before the trace (MemoryViz's "initially allocated"). Their bytes, and
// their bands into `before` (null: not kept).
int64_t blocksFromBeforeTrace(const MemorySnapshot& s, int device, const AddressMap& open,
                              int64_t entries, std::vector<ActiveBand>* before) {
    int64_t bytes = 0;
    for (const SnapshotSegment& seg : s.segments) {
        if (seg.device != device) continue;
        for (uint32_t b = seg.first_block; b < seg.first_block + seg.block_count; ++b) {
            const SnapshotBlock& block = s.blocks[b];
            if (block.state != BlockState::ActiveAllocated || open.contains(block.address))
                continue;
            bytes += block.requested_size;
            if (before)
                before->push_back(
                    {block.requested_size, block.stack, ActiveBand::kBeforeTrace, entries});
        }
    }
    return bytes;
}

int64_t reservedAtDump(const MemorySnapshot& s, int device) {
    int64_t total = 0;
    for (const SnapshotSegment& seg : s.segments)
        if (seg.device == device) total += seg.total_size;
    return total;
}

// One pass: an alloc opens a band, only free_completed ends one (a block freed
// with record_stream lives until its free completes); a completed free of a
// block the trace never allocated was alive before it. The peaks are found
// from zero and moved by what was there before once that is known.
// `lifetimes`: keep every band (else only the live blocks' sizes); `curve`
// (null: none) gets the bytes after each entry.
std::unique_ptr<DeviceHistory> replay(const MemorySnapshot& s, int device, bool lifetimes,
                                      MemoryCurve* curve) {
    auto h = std::make_unique<DeviceHistory>();
    const auto n = int64_t(s.traceSize(device));
    const AllocEvent* events = n ? s.traceBegin(device) : nullptr;
    // With lifetimes, the allocations' bands go straight where they are
    // kept, after those from before the trace (moved in front at the end):
    // room for every entry and live block is reserved, never touched beyond
    // what is used (a doubling vector and a copy touched three times as much).
    std::vector<ActiveBand> before, made;
    if (lifetimes) made.reserve(size_t(n) + s.blocks.size());
    AddressMap open; // addr -> its band in `made`, or its size without lifetimes
    if (curve) curve->allocated.resize(size_t(n)), curve->reserved.resize(size_t(n));
    int64_t allocated = 0, reserved = 0, top_allocated = 0, top_reserved = 0;
    for (int64_t i = 0; i < n; ++i) {
        const AllocEvent& e = events[i];
        if (e.action == AllocAction::Alloc) {
            open.insert(e.addr, lifetimes ? made.size() : uint64_t(e.size));
            if (lifetimes) made.push_back({e.size, e.stack, i, n});
            allocated += e.size;
        } else if (e.action == AllocAction::FreeCompleted) {
            uint64_t band = 0;
            if (!open.take(e.addr, &band)) {
                h->before_trace_bytes += e.size;
                if (lifetimes) before.push_back({e.size, e.stack, ActiveBand::kBeforeTrace, i});
                allocated -= e.size;
            } else if (lifetimes) {
                made[band].end = i;
                allocated -= made[band].size;
            } else {
                allocated -= int64_t(band);
            }
        } else if (e.action == AllocAction::Oom) {
            ++h->ooms;
        }
        reserved += reservedDelta(e);
        if (allocated > top_allocated) {
            top_allocated = allocated;
            h->peak_entry = i;
            h->peak_time_us = e.time_us;
        }
        top_reserved = std::max(top_reserved, reserved);
        if (curve) curve->allocated[size_t(i)] = allocated, curve->reserved[size_t(i)] = reserved;
    }
    h->before_trace_bytes +=
        blocksFromBeforeTrace(s, device, open, n, lifetimes ? &before : nullptr);
    const int64_t reserved_before = reservedAtDump(s, device) - reserved;
    h->peak_allocated_bytes = h->before_trace_bytes + top_allocated;
    h->peak_reserved_bytes = reserved_before + top_reserved;
    if (curve)
        for (int64_t i = 0; i < n; ++i) {
            curve->allocated[size_t(i)] += h->before_trace_bytes;
            curve->reserved[size_t(i)] += reserved_before;
        }
    if (lifetimes) {
        made.insert(made.begin(), before.begin(), before.end());
        h->lifetimes = std::move(made);
    }
    return h;
}

// The device's cache entry, emptied if the trace changed since it was made.
SnapshotHistoryCache::Entry& entryOf(const MemorySnapshot& s, int device) {
    SnapshotHistoryCache& cache = *s.history.cache;
    if (cache.devices.size() <= size_t(device)) cache.devices.resize(size_t(device) + 1);
    SnapshotHistoryCache::Entry& e = cache.devices[size_t(device)];
    const AllocEvent* events = s.traceSize(device) ? s.traceBegin(device) : nullptr;
    if (e.events != events || e.size != s.traceSize(device)) {
        e = {};
        e.events = events;
        e.size = s.traceSize(device);
    }
    return e;
}

} // namespace

const DeviceHistory& deviceHistory(const MemorySnapshot& s, int device) {
    static const DeviceHistory kNone;
    if (device < 0 || !s.history.cache) return kNone;
    const std::lock_guard<std::mutex> lock(s.history.cache->mutex);
    SnapshotHistoryCache::Entry& e = entryOf(s, device);
    if (!e.history) e.history = replay(s, device, true, nullptr);
    return *e.history;
}

const MemoryCurve& deviceCurve(const MemorySnapshot& s, int device) {
    static const MemoryCurve kNone;
    if (device < 0 || !s.history.cache) return kNone;
    const std::lock_guard<std::mutex> lock(s.history.cache->mutex);
    SnapshotHistoryCache::Entry& e = entryOf(s, device);
    if (!e.curve) {
        e.curve = std::make_unique<MemoryCurve>();
        replay(s, device, false, e.curve.get());
    }
    return *e.curve;
}

} // namespace ts
