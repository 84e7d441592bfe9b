#pragma once
// A PyTorch CUDA caching-allocator snapshot (torch.cuda.memory._snapshot(),
// _dump_snapshot's pickle) held compactly: its texts and stack frames once
// each, every stack a list of frame numbers, trace entries and blocks as
// fixed-size records. The format is PyTorch's (torch/cuda/memory.py,
// torch/csrc/cuda/memory_snapshot.cpp); docs/memory-snapshots.md says what
// Trainscope reads of it.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ts {

enum class AllocAction : uint8_t {
    Alloc,         // a block handed to the program
    FreeRequested, // the program freed it (it may wait on other streams)
    FreeCompleted, // it went back to the allocator
    SegmentAlloc,  // cudaMalloc
    SegmentFree,   // cudaFree
    SegmentMap,    // expandable segments: pages mapped
    SegmentUnmap,
    Oom,      // an allocation failed (size: asked; device_free: what was free)
    Snapshot, // _snapshot() was called
    Unknown,
};
const char* toString(AllocAction action);

enum class BlockState : uint8_t { ActiveAllocated, ActivePendingFree, Inactive, Unknown };
const char* toString(BlockState state);

struct SnapshotFrame {
    uint32_t name = 0, filename = 0; // MemorySnapshot::strings
    int64_t line = 0;
};

// 32 bytes: a snapshot is mostly trace entries, and they are most of what
// reading one keeps. A trace uses a handful of streams, so an entry holds
// its stream's number in MemorySnapshot::streams (MemorySnapshot::streamOf).
struct AllocEvent {
    int64_t addr = 0; // oom: the device's free bytes (device_free)
    int64_t size = 0;
    int64_t time_us = 0;
    uint32_t stack = 0; // MemorySnapshot::stacks; 0 = no frames
    AllocAction action = AllocAction::Unknown;
    uint16_t stream_id = 0; // MemorySnapshot::streams
};
static_assert(sizeof(AllocEvent) == 32);

struct SnapshotBlock {
    int64_t address = 0, size = 0, requested_size = 0;
    uint32_t stack = 0;
    BlockState state = BlockState::Unknown;
};

struct SnapshotSegment {
    int32_t device = 0;
    bool large = true, expandable = false;
    int64_t address = 0, total_size = 0, allocated_size = 0, active_size = 0, requested_size = 0,
            stream = 0;
    int64_t pool_first = 0, pool_second = 0; // segment_pool_id, (0, 0) the default pool
    uint32_t stack = 0;
    uint32_t first_block = 0, block_count = 0; // MemorySnapshot::blocks
};

// The replayed history of each device (snapshot/SnapshotHistory.h), made on
// first use. A copy of a snapshot starts without it: it may be changed.
struct SnapshotHistoryCache;
std::shared_ptr<SnapshotHistoryCache> newSnapshotHistoryCache();
struct SnapshotHistoryHandle {
    std::shared_ptr<SnapshotHistoryCache> cache = newSnapshotHistoryCache();
    SnapshotHistoryHandle() = default;
    SnapshotHistoryHandle(const SnapshotHistoryHandle&) {}
    SnapshotHistoryHandle& operator=(const SnapshotHistoryHandle&) {
        cache = newSnapshotHistoryCache();
        return *this;
    }
    // A moved-from snapshot may be filled again: it gets a cache of its own.
    SnapshotHistoryHandle(SnapshotHistoryHandle&& o) : cache(std::move(o.cache)) {
        o.cache = newSnapshotHistoryCache();
    }
    SnapshotHistoryHandle& operator=(SnapshotHistoryHandle&& o) {
        cache = std::move(o.cache);
        o.cache = newSnapshotHistoryCache();
        return *this;
    }
};

struct MemorySnapshot {
    std::vector<std::string> strings; // [0] = ""
    std::vector<SnapshotFrame> frames;
    // Stack s holds frames stack_frames[stack_begin[s] .. stack_begin[s + 1]),
    // innermost first (as PyTorch lists them); stack 0 is empty.
    std::vector<uint32_t> stack_begin{0, 0};
    std::vector<uint32_t> stack_frames;
    std::vector<SnapshotSegment> segments;
    std::vector<SnapshotBlock> blocks;
    // Every device's trace entries, device after device: device d's are
    // events[trace_begin[d] .. trace_begin[d + 1]).
    std::vector<AllocEvent> events;
    std::vector<size_t> trace_begin{0};
    std::vector<int64_t> streams{0}; // the trace's distinct streams; [0] = 0
    bool has_device_traces = false;  // the key was there (history was recorded)
    std::vector<std::pair<std::string, std::string>> allocator_settings; // as text
    size_t external_annotations = 0;
    int protocol = 0; // the pickle's
    SnapshotHistoryHandle history;

    size_t stackCount() const { return stack_begin.size() - 1; }
    size_t stackSize(uint32_t s) const { return stack_begin[s + 1] - stack_begin[s]; }
    const SnapshotFrame& frameOf(uint32_t stack, size_t i) const {
        return frames[stack_frames[stack_begin[stack] + i]];
    }
    // "file.py:12:forward" (PyTorch's _frame_fmt: the file's base name).
    std::string frameText(const SnapshotFrame& f) const;
    // Devices with segments or a trace.
    int devices() const;
    int64_t streamOf(const AllocEvent& e) const { return streams[e.stream_id]; }
    size_t traceDevices() const { return trace_begin.size() - 1; }
    const AllocEvent* traceBegin(int device) const {
        return events.data() + trace_begin[size_t(device)];
    }
    size_t traceSize(int device) const {
        return size_t(device) + 1 < trace_begin.size()
                   ? trace_begin[size_t(device) + 1] - trace_begin[size_t(device)]
                   : 0;
    }
};

} // namespace ts
