#pragma once
// Text, CSV and JSON of the Diff view (TraceDiff), as `trainscope-cli
// trace-diff A B` prints them, and the reading of its inputs. Times are
// microseconds, as in the traces; changes are "+12.3%" of A, as in
// `compare` (A is the baseline).
#include <cstddef>
#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "analysis/TraceDiff.h"

namespace ts {

// A trace file (.json, .json.gz: Kineto or Trainscope's own), a run
// directory (its trace.json) or a run's run.json (the trace.json beside it).
// std::invalid_argument naming the path when it does not exist or holds no
// trace.json; TraceReadError when the trace cannot be read.
Trace readTraceDiffInput(const std::filesystem::path& path);

// The summary line (step time A -> B), the categories, then the changed
// operators and kernels (status other than unchanged), `limit` of each.
std::string traceDiffText(const TraceDiff& diff, size_t limit = 10);
// CSV tables separated by an empty line, each with its header: the two
// sides, the categories, the operators, the kernels (all rows, unless
// `limit`), the aligned pairs, the tree (one row per node, by path).
std::string traceDiffCsv(const TraceDiff& diff, size_t limit = 0);
// {"a", "b": {"label", "kineto", "has_steps", "steps", "step_us",
//  "has_device_time"}, "per_step", "by_device", "categories_comparable",
//  "threshold_us", "step_delta_us", "step_change", "categories": [{"name",
//  "a_us", "b_us", "delta_us"}], "operators"/"kernels": [{"name", "status",
//  "calls_a", "calls_b", "device_a_us", ..., "impact_us"}],
//  "changed_operators": [...], "tree": {"path", "matched", "a", "b": {"name",
//  "blank", "composite", "nodes", "duration_us", "device_duration_us",
//  "total_duration_us", "aggregates": [...]}, "children": [...]},
//  "alignment": {"a", "b": {"index", "label", "start_us", "end_us", "ops":
//  [{"name", "start_us", "end_us", "pair", "changed"}]}, "pairs": [...]}}
nlohmann::json traceDiffJson(const TraceDiff& diff, size_t limit = 0);

} // namespace ts
