#pragma once
// make_snapshot.py's toy caching allocator in C++, draw for draw: segments of
// 2 MiB (small) and 20 MiB or more (large), blocks rounded to 512 bytes
// carved from the newest segment of their pool, frees requested and
// completed (a tenth later, as record_stream does), empty_cache, OOMs. Each
// trace entry goes to an EventSink as it happens, so a trace of any length
// streams; what is kept is the allocator's live state (its segments and
// blocks). Beside the entries it keeps the figures PyTorch's viewers give,
// from what it knows (which block is which), not from the trace: the
// generator's own check of a reader (DeviceTotals).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "PythonRandom.h"

namespace ts::snapgen {

enum class Action : uint8_t { Alloc, FreeRequested, FreeCompleted, SegmentAlloc, SegmentFree, Oom };
enum class State : uint8_t { ActiveAllocated, ActivePendingFree, Inactive };

struct Entry {
    Action action;
    int64_t addr; // oom: device_free
    int64_t size;
    int64_t time_us;
    uint32_t stack;
};

class EventSink {
public:
    virtual ~EventSink() = default;
    // `index`: the entry's place in the whole history, the ring buffer's cut included.
    virtual void entry(const Entry& e, uint64_t index) = 0;
};

struct ToyBlock {
    int64_t address = 0, size = 0, requested = 0;
    uint32_t stack = 0;
    State state = State::ActiveAllocated;
};

struct ToySegment {
    int64_t address = 0, total = 0, used = 0;
    uint32_t stack = 0;
    bool small = false;
    uint64_t serial = 0;    // creation order (Python's list order)
    bool candidate = false; // queued for the next empty_cache
    bool alive = false;
    std::vector<ToyBlock> blocks;
};

// The figures of one device by PyTorch's rules (docs/memory-snapshots.md).
struct DeviceTotals {
    uint64_t segments = 0, entries = 0, ooms = 0;
    int64_t reserved_bytes = 0, allocated_bytes = 0;
    int64_t peak_allocated_bytes = 0, peak_entry = -1, peak_reserved_bytes = 0;
};

class ToyAllocator {
public:
    // `stacks`: how many stacks the pool holds (stack 0 is the empty one);
    // `max_live`: at most that many blocks alive (0: no bound, make_snapshot.py's).
    ToyAllocator(PythonRandom& rng, uint32_t stacks, int device, uint64_t entries,
                 uint64_t keep_from, EventSink* sink, uint64_t max_live = 0);
    void run();
    // After run(): the segments at the dump, in order, each ending in a
    // free block where it is not carved to its end (make_snapshot.py's finish).
    std::vector<ToySegment> takeSegments();
    const DeviceTotals& totals() const { return totals_; }
    uint64_t traceLength() const { return emitted_ - keep_from_; }

private:
    // A live or pending block with what its frees write, so that a free
    // touches one random place in memory, not three (the segment, its
    // blocks, the block): a block's state is only needed at the dump, and
    // is then known from these lists.
    struct BlockRef {
        int64_t address, size;
        uint32_t stack, segment, block;
        bool before_trace; // allocated before the ring buffer's cut
    };
    void event(Action action, int64_t addr, int64_t size, uint32_t stack);
    uint32_t newSegment(int64_t size, uint32_t stack, bool small);
    void alloc();
    void free();
    void completeFree(const BlockRef& b);
    void completePending();
    void emptyCache();

    PythonRandom& rng_;
    uint32_t stacks_;
    int device_;
    uint64_t entries_, keep_from_;
    EventSink* sink_;
    uint64_t max_live_;
    uint64_t emitted_ = 0, serial_ = 0;
    int64_t next_address_, time_us_ = 1'700'000'000'000'000;
    std::vector<ToySegment> slots_; // segments; a freed one's slot is reused
    std::vector<uint32_t> active_;  // per slot: blocks not inactive (0: empty_cache frees it)
    std::vector<uint32_t> free_slots_;
    std::vector<std::pair<uint32_t, uint64_t>> order_; // (slot, serial), freed ones skipped
    size_t dead_in_order_ = 0;
    int64_t open_[2] = {-1, -1}; // the slot blocks are carved from: [small]
    std::vector<BlockRef> live_; // make_snapshot.py's live_addrs
    std::vector<BlockRef> pending_;
    std::vector<uint32_t> candidates_; // slots that may be all inactive
    DeviceTotals totals_;
    int64_t reserved_ = 0, delta_ = 0, max_delta_ = 0, before_trace_ = 0;
};

} // namespace ts::snapgen
