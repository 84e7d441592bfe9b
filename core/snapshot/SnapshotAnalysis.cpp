#include "snapshot/SnapshotAnalysis.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace ts {
namespace {

bool endsBlock(AllocAction a) {
    return a == AllocAction::FreeCompleted;
}

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

// Bytes alive as the trace goes: an alloc adds, a completed free takes its
// alloc's bytes away (or, for a block alive before the trace, its own size).
struct LiveBytes {
    std::unordered_map<int64_t, int64_t> live; // addr -> bytes of the trace's allocs
    int64_t total = 0;

    void apply(const AllocEvent& e) {
        if (e.action == AllocAction::Alloc) {
            live[e.addr] = e.size;
            total += e.size;
        } else if (endsBlock(e.action)) {
            const auto it = live.find(e.addr);
            total -= it != live.end() ? it->second : e.size;
            if (it != live.end()) live.erase(it);
        }
    }
};

// The allocations alive before the trace: frees of blocks the trace never
// allocated, and blocks still allocated at the snapshot that no alloc of the
// trace left open (MemoryViz's "initially allocated").
struct Replay {
    std::vector<std::pair<int64_t, uint32_t>> before; // (bytes, stack)
    std::unordered_map<int64_t, size_t> open;         // addr -> alloc entry, at the end
};

Replay replayOf(const MemorySnapshot& s, int device) {
    Replay r;
    const AllocEvent* events = s.traceBegin(device);
    for (size_t i = 0; i < s.traceSize(device); ++i) {
        const AllocEvent& e = events[i];
        if (e.action == AllocAction::Alloc) {
            r.open[e.addr] = i;
        } else if (endsBlock(e.action)) {
            if (!r.open.erase(e.addr)) r.before.emplace_back(e.size, e.stack);
        }
    }
    for (const auto& block : blocksFromBeforeTrace(s, device, r.open))
        r.before.push_back(block);
    return r;
}

bool torchFile(const std::string& file) {
    return file.find("/torch/") != std::string::npos ||
           file.find("site-packages") != std::string::npos ||
           file.find(".cpp") != std::string::npos || file.find(".so") != std::string::npos ||
           file.empty() || file[0] == '?';
}

} // namespace

DeviceMemorySummary summarizeDevice(const MemorySnapshot& s, int device) {
    DeviceMemorySummary d;
    d.device = device;
    for (const SnapshotSegment& seg : s.segments) {
        if (seg.device != device) continue;
        ++d.segments;
        d.reserved_bytes += seg.total_size;
        for (uint32_t b = seg.first_block; b < seg.first_block + seg.block_count; ++b) {
            const SnapshotBlock& block = s.blocks[b];
            if (block.state == BlockState::ActiveAllocated) {
                d.allocated_bytes += block.requested_size;
                d.active_bytes += block.size;
            } else if (block.state == BlockState::ActivePendingFree) {
                d.pending_free_bytes += block.size;
            } else {
                d.inactive_bytes += block.size;
            }
        }
    }
    const Replay r = replayOf(s, device);
    int64_t total = 0;
    for (const auto& [bytes, stack] : r.before)
        total += bytes;
    d.before_trace_bytes = total;
    d.peak_allocated_bytes = total;
    const AllocEvent* events = s.traceBegin(device);
    d.entries = s.traceSize(device);
    int64_t reserved_change = 0;
    for (size_t i = 0; i < d.entries; ++i)
        reserved_change += reservedDelta(events[i]);
    int64_t reserved = d.reserved_bytes - reserved_change;
    d.peak_reserved_bytes = reserved;
    LiveBytes live;
    live.total = total;
    for (size_t i = 0; i < d.entries; ++i) {
        const AllocEvent& e = events[i];
        live.apply(e);
        if (e.action == AllocAction::Oom) ++d.ooms;
        reserved += reservedDelta(e);
        d.peak_reserved_bytes = std::max(d.peak_reserved_bytes, reserved);
        if (live.total > d.peak_allocated_bytes) {
            d.peak_allocated_bytes = live.total;
            d.peak_entry = int64_t(i);
            d.peak_time_us = e.time_us;
        }
    }
    return d;
}

std::vector<StackBytes> sortedByBytes(const std::unordered_map<uint32_t, StackBytes>& by_stack) {
    std::vector<StackBytes> out;
    out.reserve(by_stack.size());
    for (const auto& [stack, b] : by_stack)
        out.push_back(b);
    std::sort(out.begin(), out.end(), [](const StackBytes& a, const StackBytes& b) {
        return a.bytes != b.bytes ? a.bytes > b.bytes : a.stack < b.stack;
    });
    return out;
}

std::vector<std::pair<int64_t, uint32_t>>
blocksFromBeforeTrace(const MemorySnapshot& s, int device,
                      const std::unordered_map<int64_t, size_t>& open) {
    std::vector<std::pair<int64_t, uint32_t>> out;
    for (const SnapshotSegment& seg : s.segments) {
        if (seg.device != device) continue;
        for (uint32_t b = seg.first_block; b < seg.first_block + seg.block_count; ++b) {
            const SnapshotBlock& block = s.blocks[b];
            if (block.state == BlockState::ActiveAllocated && !open.count(block.address))
                out.emplace_back(block.requested_size, block.stack);
        }
    }
    return out;
}

std::vector<StackBytes> aliveAt(const MemorySnapshot& s, int device, int64_t entry) {
    const AllocEvent* events = s.traceBegin(device);
    const size_t n = s.traceSize(device);
    // Before-trace blocks alive at `entry`: those freed after it, and those
    // alive at the snapshot. Frees of unknown blocks up to `entry` ended them.
    std::unordered_map<uint32_t, StackBytes> by_stack;
    auto add = [&](uint32_t stack, int64_t bytes) {
        StackBytes& b = by_stack[stack];
        b.stack = stack;
        b.bytes += bytes;
        ++b.blocks;
    };
    std::unordered_map<int64_t, size_t> open;
    std::unordered_set<size_t> ended;
    for (size_t i = 0; i < n; ++i) {
        const AllocEvent& e = events[i];
        if (e.action == AllocAction::Alloc) {
            open[e.addr] = i;
        } else if (endsBlock(e.action)) {
            const auto it = open.find(e.addr);
            if (it != open.end()) {
                if (int64_t(i) <= entry) ended.insert(it->second);
                open.erase(it);
            } else if (int64_t(i) > entry) {
                add(e.stack, e.size); // alive before the trace, freed after `entry`
            }
        }
    }
    // `open` is now what the trace left open: the other live blocks of the
    // dump were alive before it.
    for (const auto& [bytes, stack] : blocksFromBeforeTrace(s, device, open))
        add(stack, bytes);
    for (size_t i = 0; i < n && int64_t(i) <= entry; ++i)
        if (events[i].action == AllocAction::Alloc && !ended.count(i))
            add(events[i].stack, events[i].size);
    return sortedByBytes(by_stack);
}

std::vector<StackBytes> aliveAtSnapshot(const MemorySnapshot& s, int device) {
    std::unordered_map<uint32_t, StackBytes> by_stack;
    for (const SnapshotSegment& seg : s.segments) {
        if (seg.device != device) continue;
        for (uint32_t b = seg.first_block; b < seg.first_block + seg.block_count; ++b) {
            const SnapshotBlock& block = s.blocks[b];
            if (block.state != BlockState::ActiveAllocated) continue;
            StackBytes& x = by_stack[block.stack];
            x.stack = block.stack;
            x.bytes += block.requested_size;
            ++x.blocks;
        }
    }
    return sortedByBytes(by_stack);
}

std::string stackText(const MemorySnapshot& s, uint32_t stack) {
    const size_t n = s.stackSize(stack);
    if (n == 0) return "<no frames>";
    std::string out;
    for (size_t i = n; i-- > 0;)
        out += (out.empty() ? "" : ";") + s.frameText(s.frameOf(stack, i));
    return out;
}

std::string userFrame(const MemorySnapshot& s, uint32_t stack) {
    const size_t n = s.stackSize(stack);
    if (n == 0) return "";
    for (size_t i = 0; i < n; ++i)
        if (!torchFile(s.strings[s.frameOf(stack, i).filename]))
            return s.frameText(s.frameOf(stack, i));
    return s.frameText(s.frameOf(stack, 0));
}

MemoryCurve memoryCurve(const MemorySnapshot& s, int device) {
    MemoryCurve c;
    const DeviceMemorySummary d = summarizeDevice(s, device);
    const AllocEvent* events = s.traceBegin(device);
    const size_t n = s.traceSize(device);
    int64_t reserved_change = 0;
    for (size_t i = 0; i < n; ++i)
        reserved_change += reservedDelta(events[i]);
    int64_t reserved = d.reserved_bytes - reserved_change;
    LiveBytes live;
    live.total = d.before_trace_bytes;
    c.allocated.reserve(n);
    c.reserved.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        live.apply(events[i]);
        reserved += reservedDelta(events[i]);
        c.allocated.push_back(live.total);
        c.reserved.push_back(reserved);
    }
    return c;
}

} // namespace ts
