#include "snapshot/AllocatorState.h"

#include <algorithm>

#include "snapshot/AddressMap.h"

namespace ts {
namespace {

// Records by address while the trace is undone: a flat table of addresses to
// slots of `items`, slots of removed records reused (undoing 15 million
// entries of a 1 GB snapshot through std::map took 8 s).
template <typename T> class UndoSet {
public:
    void put(int64_t address, const T& item) {
        if (uint64_t* slot = index_.find(address)) {
            items_[*slot] = item;
            return;
        }
        uint64_t slot = items_.size();
        if (!free_.empty()) {
            slot = free_.back();
            free_.pop_back();
            items_[slot] = item;
        } else {
            items_.push_back(item);
        }
        live_.resize(items_.size(), 0);
        live_[slot] = 1;
        index_.insert(address, slot);
    }
    void remove(int64_t address) {
        uint64_t slot = 0;
        if (!index_.take(address, &slot)) return;
        live_[slot] = 0;
        free_.push_back(slot);
    }
    T* find(int64_t address) {
        uint64_t* slot = index_.find(address);
        return slot ? &items_[*slot] : nullptr;
    }
    // What is left, by address.
    template <typename Address> std::vector<T> sorted(Address address) && {
        std::vector<T> out;
        out.reserve(index_.size());
        for (size_t i = 0; i < items_.size(); ++i)
            if (live_[i]) out.push_back(std::move(items_[i]));
        std::sort(out.begin(), out.end(),
                  [&](const T& a, const T& b) { return address(a) < address(b); });
        return out;
    }

private:
    AddressMap index_;
    std::vector<T> items_;
    std::vector<uint8_t> live_;
    std::vector<uint64_t> free_;
};

} // namespace

int64_t StateSegment::allocated() const {
    int64_t bytes = 0;
    for (const StateBlock& b : blocks)
        bytes += b.size;
    return bytes;
}

AllocatorState allocatorStateAt(const MemorySnapshot& s, int device, int64_t entry) {
    // Segments and blocks while undoing; the dump's state first.
    UndoSet<StateSegment> segments;
    UndoSet<StateBlock> blocks;
    for (const SnapshotSegment& seg : s.segments) {
        if (seg.device != device) continue;
        segments.put(seg.address, {seg.address, seg.total_size, seg.stream, {}});
        for (uint32_t b = seg.first_block; b < seg.first_block + seg.block_count; ++b) {
            const SnapshotBlock& block = s.blocks[b];
            if (block.state == BlockState::ActiveAllocated ||
                block.state == BlockState::ActivePendingFree)
                blocks.put(block.address, {block.address, block.size, block.stack,
                                           block.state == BlockState::ActivePendingFree});
        }
    }
    const AllocEvent* events = s.traceSize(device) ? s.traceBegin(device) : nullptr;
    for (int64_t i = int64_t(s.traceSize(device)) - 1; i > entry; --i) {
        const AllocEvent& e = events[i];
        switch (e.action) {
        case AllocAction::Alloc:
            blocks.remove(e.addr);
            break;
        case AllocAction::FreeCompleted:
            blocks.put(e.addr, {e.addr, e.size, e.stack, true});
            break;
        case AllocAction::FreeRequested:
            if (StateBlock* b = blocks.find(e.addr)) b->pending_free = false;
            break;
        case AllocAction::SegmentAlloc:
        case AllocAction::SegmentMap:
            segments.remove(e.addr);
            break;
        case AllocAction::SegmentFree:
        case AllocAction::SegmentUnmap:
            segments.put(e.addr, {e.addr, e.size, s.streamOf(e), {}});
            break;
        default:
            break;
        }
    }
    AllocatorState state;
    state.entry = entry;
    state.segments = std::move(segments).sorted([](const StateSegment& x) { return x.address; });
    for (const StateBlock& block :
         std::move(blocks).sorted([](const StateBlock& x) { return x.address; })) {
        // The segment holding it: the last one starting at or before it.
        auto it = std::upper_bound(
            state.segments.begin(), state.segments.end(), block.address,
            [](int64_t addr, const StateSegment& seg) { return addr < seg.address; });
        if (it == state.segments.begin()) continue;
        --it;
        if (block.address >= it->address + it->size) continue;
        it->blocks.push_back(block);
        state.allocated_bytes += block.size;
        ++state.blocks;
    }
    for (const StateSegment& seg : state.segments)
        state.reserved_bytes += seg.size;
    return state;
}

} // namespace ts
