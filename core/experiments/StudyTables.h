#pragma once
// The Experiments tables, described once (report/TableSpec.h): `sweep`,
// `ladder` and `prune` print them and the GUI's Experiments view shows them.
// Keys are the columns' names in sweep.csv, ladder.csv and prune_layers.csv;
// titles are the CLI's. Sizes are bytes behind "memory MiB" cells (the GUI
// shows "210 MiB"), times milliseconds, shares fractions 0..1.
#include <string>
#include <vector>

#include "analysis/PruneTypes.h"
#include "experiments/Ladder.h"
#include "experiments/Sweep.h"
#include "report/TableSpec.h"

namespace ts {

namespace sweep_column {
inline constexpr const char* kPoint = "point";
inline constexpr const char* kStatus = "status";
inline constexpr const char* kImagesPerSec = "images_per_sec";
inline constexpr const char* kPredicted = "predicted_bytes";
} // namespace sweep_column

namespace ladder_column {
inline constexpr const char* kRung = "title";
inline constexpr const char* kImagesPerSec = "images_per_sec";
inline constexpr const char* kSpeedup = "speedup";
inline constexpr const char* kKept = "kept";
inline constexpr const char* kDecision = "decision";
} // namespace ladder_column

namespace prune_column {
inline constexpr const char* kLayer = "layer";
inline constexpr const char* kParams = "params";
inline constexpr const char* kZerosAfter = "zeros_after";
inline constexpr const char* kSparsityAfter = "sparsity_after";
} // namespace prune_column

// "ok", "failed", "oom", "skipped", or "cancelled"/"stopped" for points the
// user stopped.
std::string outcomeText(const PointResult& result);

// One row per point: its index, one column per swept key (from the rows'
// points), and on a sweep over processes the scaling columns.
table::TableSpec sweepTableSpec(const std::vector<SweepRow>& rows);
table::TableSpec ladderTableSpec(const std::vector<RungRow>& rows);
table::TableSpec pruneLayerTableSpec(const std::vector<LayerSparsity>& layers);

// "64x3x7x7".
std::string tensorShapeText(const std::vector<int64_t>& shape);

// A pipe table of `table`, its number columns right-aligned (report.md style).
std::string toMarkdown(const table::TableSpec& table);

} // namespace ts
