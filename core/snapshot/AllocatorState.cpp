#include "snapshot/AllocatorState.h"

#include <algorithm>
#include <map>

namespace ts {

int64_t StateSegment::allocated() const {
    int64_t bytes = 0;
    for (const StateBlock& b : blocks)
        bytes += b.size;
    return bytes;
}

AllocatorState allocatorStateAt(const MemorySnapshot& s, int device, int64_t entry) {
    // Segments and blocks by address while undoing; the dump's state first.
    std::map<int64_t, StateSegment> segments;
    std::map<int64_t, StateBlock> blocks;
    for (const SnapshotSegment& seg : s.segments) {
        if (seg.device != device) continue;
        segments[seg.address] = {seg.address, seg.total_size, seg.stream, {}};
        for (uint32_t b = seg.first_block; b < seg.first_block + seg.block_count; ++b) {
            const SnapshotBlock& block = s.blocks[b];
            if (block.state == BlockState::ActiveAllocated ||
                block.state == BlockState::ActivePendingFree)
                blocks[block.address] = {block.address, block.size, block.stack,
                                         block.state == BlockState::ActivePendingFree};
        }
    }
    const AllocEvent* events = s.traceBegin(device);
    for (int64_t i = int64_t(s.traceSize(device)) - 1; i > entry; --i) {
        const AllocEvent& e = events[i];
        switch (e.action) {
        case AllocAction::Alloc:
            blocks.erase(e.addr);
            break;
        case AllocAction::FreeCompleted:
            blocks[e.addr] = {e.addr, e.size, e.stack, true};
            break;
        case AllocAction::FreeRequested:
            if (const auto it = blocks.find(e.addr); it != blocks.end())
                it->second.pending_free = false;
            break;
        case AllocAction::SegmentAlloc:
        case AllocAction::SegmentMap:
            segments.erase(e.addr);
            break;
        case AllocAction::SegmentFree:
        case AllocAction::SegmentUnmap:
            segments[e.addr] = {e.addr, e.size, e.stream, {}};
            break;
        default:
            break;
        }
    }
    AllocatorState state;
    state.entry = entry;
    for (const auto& [addr, block] : blocks) {
        // The segment holding it: the last one starting at or before it.
        auto it = segments.upper_bound(addr);
        if (it == segments.begin()) continue;
        --it;
        if (addr >= it->second.address + it->second.size) continue;
        it->second.blocks.push_back(block);
        state.allocated_bytes += block.size;
        ++state.blocks;
    }
    for (auto& [addr, seg] : segments) {
        state.reserved_bytes += seg.size;
        state.segments.push_back(std::move(seg));
    }
    return state;
}

} // namespace ts
