#pragma once
// The CPU bytes each operator allocated and freed itself ("Self CPU Mem"):
// what its event carries (Trainscope's own profiler, a trace's alloc_bytes /
// free_bytes arguments) plus torch.profiler's CPU [memory] instants, each
// counting towards the innermost op open on its thread at that moment.
// Computed when a view asks: the reader keeps the instants once
// (KinetoInfo::memory) instead of a memory row per op in the event store
// (about 10 bytes per event on a profile_memory trace).
#include <cstdint>
#include <vector>

#include "trace/Trace.h"

namespace ts {

struct OpMemory {
    int64_t alloc_bytes = 0;
    int64_t free_bytes = 0;
};

// By event: the bytes of every event of the trace.
std::vector<OpMemory> opMemory(const Trace& trace);
// One event's, the same figures as opMemory()[event] (the timeline's details).
OpMemory opMemoryOf(const Trace& trace, int32_t event);

} // namespace ts
