#include "ToyAllocator.h"

#include <algorithm>

namespace ts::snapgen {
namespace {
constexpr int64_t kMiB = 1024 * 1024;
} // namespace

ToyAllocator::ToyAllocator(PythonRandom& rng, uint32_t stacks, int device, uint64_t entries,
                           uint64_t keep_from, EventSink* sink, uint64_t max_live)
    : rng_(rng), stacks_(stacks), device_(device), entries_(entries), keep_from_(keep_from),
      sink_(sink), max_live_(max_live),
      next_address_(0x7F0000000000 + int64_t(device) * 0x1000000000) {}

void ToyAllocator::event(Action action, int64_t addr, int64_t size, uint32_t stack) {
    time_us_ += rng_.range(1, 50);
    const uint64_t index = emitted_++;
    const int64_t reserved_before = reserved_;
    if (action == Action::SegmentAlloc) reserved_ += size;
    if (action == Action::SegmentFree) reserved_ -= size;
    if (index < keep_from_) return; // cut by the ring buffer
    // The reserved curve starts where the allocator stood at the cut.
    if (index == keep_from_) totals_.peak_reserved_bytes = reserved_before;
    totals_.peak_reserved_bytes = std::max(totals_.peak_reserved_bytes, reserved_);
    if (action == Action::Oom) ++totals_.ooms;
    // The Active Memory Timeline: allocs open a block, completed frees end it
    // (a block allocated before the cut counts from the start, see finish()).
    if (action == Action::Alloc) delta_ += size;
    if (action == Action::FreeCompleted) delta_ -= size;
    if (delta_ > max_delta_) max_delta_ = delta_, totals_.peak_entry = int64_t(index - keep_from_);
    if (sink_) sink_->entry({action, addr, size, time_us_, stack}, index);
}

uint32_t ToyAllocator::newSegment(int64_t size, uint32_t stack, bool small) {
    uint32_t slot;
    if (!free_slots_.empty()) {
        slot = free_slots_.back();
        free_slots_.pop_back();
    } else {
        slot = uint32_t(slots_.size());
        slots_.emplace_back();
        active_.push_back(0);
    }
    ToySegment& s = slots_[slot];
    s.blocks.clear(); // keeps its capacity for the next segment
    s.address = next_address_, s.total = size, s.used = 0, s.stack = stack, s.small = small;
    s.serial = serial_++, s.candidate = false, s.alive = true;
    active_[slot] = 0;
    next_address_ += size + 2 * kMiB;
    order_.emplace_back(slot, s.serial);
    event(Action::SegmentAlloc, s.address, size, stack);
    return slot;
}

void ToyAllocator::alloc() {
    const bool small = rng_.random() < 0.6;
    const int64_t requested = small ? rng_.range(1, kMiB) : rng_.range(kMiB, 64 * kMiB);
    const int64_t size = (requested + 511) / 512 * 512;
    const uint32_t stack = rng_.random() < 0.95 ? uint32_t(1 + rng_.below(stacks_ - 1)) : 0;
    int64_t slot = open_[small];
    if (slot < 0 || slots_[size_t(slot)].total - slots_[size_t(slot)].used < size) {
        const int64_t segment_size =
            small ? 2 * kMiB : std::max(20 * kMiB, (size + 2 * kMiB - 1) / (2 * kMiB) * 2 * kMiB);
        slot = newSegment(segment_size, stack, small);
        open_[small] = slot;
    }
    ToySegment& s = slots_[size_t(slot)];
    ToyBlock b;
    b.address = s.address + s.used, b.size = size, b.requested = requested, b.stack = stack;
    s.used += size;
    ++active_[size_t(slot)];
    s.blocks.push_back(b);
    live_.push_back({b.address, size, stack, uint32_t(slot), uint32_t(s.blocks.size() - 1),
                     emitted_ < keep_from_});
    event(Action::Alloc, b.address, size, stack);
}

void ToyAllocator::free() {
    const auto at = uint32_t(rng_.below(live_.size()));
    const BlockRef b = live_[at];
    __builtin_prefetch(&active_[b.segment], 1); // needed once the frees are written
    live_[at] = live_.back();                   // the last one takes the freed one's place
    live_.pop_back();
    event(Action::FreeRequested, b.address, b.size, b.stack);
    if (rng_.random() < 0.1) // record_stream: completed later
        pending_.push_back(b);
    else
        completeFree(b);
}

void ToyAllocator::completeFree(const BlockRef& b) {
    if (--active_[b.segment] == 0 && !slots_[b.segment].candidate) {
        slots_[b.segment].candidate = true;
        candidates_.push_back(b.segment);
    }
    if (b.before_trace && emitted_ >= keep_from_) before_trace_ += b.size;
    event(Action::FreeCompleted, b.address, b.size, b.stack);
}

void ToyAllocator::completePending() {
    for (const BlockRef& b : pending_)
        completeFree(b);
    pending_.clear();
}

// make_snapshot.py walks every segment in order and frees those whose
// blocks are all inactive; only segments whose last block went inactive
// since the last call can be such, so only those are looked at (a walk of
// every segment made a gigabyte's history quadratic).
void ToyAllocator::emptyCache() {
    std::sort(candidates_.begin(), candidates_.end(),
              [&](uint32_t a, uint32_t b) { return slots_[a].serial < slots_[b].serial; });
    for (const uint32_t slot : candidates_) {
        ToySegment& s = slots_[slot];
        s.candidate = false;
        if (active_[slot] != 0) continue; // carved again since
        event(Action::SegmentFree, s.address, s.total, s.stack);
        if (open_[s.small] == int64_t(slot)) open_[s.small] = -1;
        s.alive = false;
        free_slots_.push_back(slot);
        ++dead_in_order_;
    }
    candidates_.clear();
    if (dead_in_order_ > 1024 && dead_in_order_ > order_.size() / 2) {
        order_.erase(std::remove_if(order_.begin(), order_.end(),
                                    [&](const std::pair<uint32_t, uint64_t>& o) {
                                        const ToySegment& s = slots_[o.first];
                                        return !s.alive || s.serial != o.second;
                                    }),
                     order_.end());
        dead_in_order_ = 0;
    }
}

void ToyAllocator::run() {
    while (emitted_ < entries_) {
        const double r = rng_.random();
        // Bounded, the live set holds steady as a training loop's does: an
        // alloc drawn when it is full frees instead.
        const bool full = max_live_ > 0 && live_.size() >= max_live_;
        if ((r < 0.52 && !full) || live_.empty()) {
            alloc();
        } else if (r < 0.97) {
            free();
        } else if (r < 0.985) {
            completePending();
        } else if (r < 0.995) {
            emptyCache();
        } else {
            const int64_t device_free = rng_.range(0, 512 * kMiB);
            const int64_t size = rng_.range(64 * kMiB, 8192 * kMiB);
            event(Action::Oom, device_free, size, uint32_t(rng_.below(stacks_)));
        }
    }
}

std::vector<ToySegment> ToyAllocator::takeSegments() {
    // The blocks' states at the dump: inactive but those still live or pending.
    for (ToySegment& s : slots_)
        for (ToyBlock& b : s.blocks)
            b.state = State::Inactive;
    for (const BlockRef& r : live_) {
        ToyBlock& b = slots_[r.segment].blocks[r.block];
        b.state = State::ActiveAllocated;
        // Alive at the dump with no alloc in the trace: the viewers count it
        // from the start, by the bytes asked for.
        if (r.before_trace) before_trace_ += b.requested;
    }
    for (const BlockRef& r : pending_)
        slots_[r.segment].blocks[r.block].state = State::ActivePendingFree;
    std::vector<ToySegment> out;
    for (const auto& [slot, serial] : order_) {
        ToySegment& s = slots_[slot];
        if (!s.alive || s.serial != serial) continue;
        if (s.used < s.total) {
            ToyBlock rest;
            rest.address = s.address + s.used, rest.size = s.total - s.used;
            rest.state = State::Inactive;
            s.blocks.push_back(rest);
        }
        totals_.reserved_bytes += s.total;
        for (const ToyBlock& b : s.blocks)
            if (b.state == State::ActiveAllocated) totals_.allocated_bytes += b.requested;
        out.push_back(std::move(s));
    }
    totals_.segments = out.size();
    totals_.entries = traceLength();
    if (emitted_ <= keep_from_) totals_.peak_reserved_bytes = reserved_;
    totals_.peak_allocated_bytes = before_trace_ + max_delta_;
    slots_.clear(), active_.clear(), order_.clear(), live_.clear(), pending_.clear();
    return out;
}

} // namespace ts::snapgen
