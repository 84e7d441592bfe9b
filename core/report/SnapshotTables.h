#pragma once
// A PyTorch allocator snapshot (snapshot/SnapshotAnalysis.h) as tables and
// JSON: `trainscope-cli memory-stats` and `memory-diff` print them.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/MemoryCategories.h"
#include "report/ChartSpec.h"
#include "report/TableSpec.h"
#include "snapshot/AllocatorState.h"
#include "snapshot/SnapshotAnalysis.h"
#include "snapshot/SnapshotFilter.h"

namespace ts {

// One row per device: segments, reserved, allocated, blocks by state, trace
// entries, the peaks of allocated and reserved memory, OOMs.
table::TableSpec snapshotSummaryTable(const MemorySnapshot& s);
// What was alive at a device's peak, by stack, most bytes first; with a
// filter, of the allocations it keeps at their peak in its range.
table::TableSpec snapshotPeakTable(const MemorySnapshot& s, int device,
                                   const SnapshotFilter& filter = {});
// How the alive table groups allocations: by their whole stack, by the
// innermost frame outside PyTorch (the user's line), or by their size
// (equal sizes are often one tensor shape made again and again).
enum class AliveGrouping { Stack, UserFrame, Size };
// "stack", "frame" or "size"; throws std::invalid_argument naming the value.
AliveGrouping aliveGroupingFrom(const std::string& text);
// The same after trace entry `entry` (-1: before the trace).
table::TableSpec snapshotAliveTable(const MemorySnapshot& s, int device, int64_t entry,
                                    const SnapshotFilter& filter = {},
                                    AliveGrouping grouping = AliveGrouping::Stack);
// What the segments held at the dump (active_allocated blocks, requested
// bytes), by stack: memory_viz's `memory` flame graph; it needs no history.
table::TableSpec snapshotDumpTable(const MemorySnapshot& s, int device);
// The entry whose state the peak tables show: the peak of what the filter keeps.
int64_t snapshotPeakEntry(const MemorySnapshot& s, int device, const SnapshotFilter& filter);
// What was alive after `entry` as a flame graph's rows (memoryFlame): the
// frames outermost first, each with the bytes under it; at most `rows`
// (0: all), the widest kept.
table::TableSpec snapshotFlameTable(const MemorySnapshot& s, int device, int64_t entry,
                                    const SnapshotFilter& filter = {}, size_t rows = 0);
// What a filter keeps alive after `entry`, by stack (aliveAt without one).
std::vector<StackBytes> snapshotAlive(const MemorySnapshot& s, int device, int64_t entry,
                                      const SnapshotFilter& filter);
// Allocated and reserved GB over the trace's entries (at most `points`
// points, each the largest of its stretch): the GUI's chart of a snapshot.
// With a filter: what it keeps, over its range.
chart::XyChart snapshotCurveChart(const MemorySnapshot& s, int device, size_t points,
                                  const SnapshotFilter& filter = {});
table::TableSpec snapshotSegmentTable(const MemorySnapshot& s);
// Allocator State History: a device's segments after trace entry `entry`,
// each with the bytes of its blocks and what is free in it.
table::TableSpec snapshotStateTable(const MemorySnapshot& s, int device, int64_t entry);
// The same of a state already found (the GUI draws it too).
table::TableSpec snapshotStateTable(const AllocatorState& state, int device);
// Allocated and reserved bytes over the trace, at most `points` rows (each
// the largest of its stretch, so that no peak is lost).
table::TableSpec snapshotTimelineTable(const MemorySnapshot& s, int device, size_t points,
                                       const SnapshotFilter& filter = {});
// Every OOM with the allocated and reserved memory of that moment.
table::TableSpec snapshotOomTable(const MemorySnapshot& s);
// Per device: the figures, and the top stacks at the peak with their bytes.
nlohmann::json snapshotJson(const MemorySnapshot& s, size_t top);
// B against A: per device, what grew; per stack alive at the snapshots.
std::vector<table::TableSpec> snapshotDiffTables(const MemorySnapshot& a, const MemorySnapshot& b);
// export_memory_timeline's categories at their peak (Parameter, ..., Unknown).
table::TableSpec categoryPeakTable(const CategoryTimeline& timeline);
// The same at point `index` of the timeline (the GUI's click).
table::TableSpec categoryAtTable(const CategoryTimeline& timeline, size_t index);
// Each category's bytes over time, at most `points` rows (each the point of
// its stretch where the categories add up to most, so that no peak is lost):
// ms from the first point, the eight categories, their total.
table::TableSpec categoryTimelineTable(const CategoryTimeline& timeline, size_t points);
nlohmann::json categoryPeakJson(const CategoryTimeline& timeline);
// What a snapshot without device_traces lacks, and how to record it.
std::string noHistoryHint();

} // namespace ts
