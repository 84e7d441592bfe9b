#pragma once
// The user-annotation breakdown (analysis/UserAnnotations.h) as tables and
// JSON: `trace-stats --view annotations` prints them and the GUI's
// Annotations view shows them.
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/UserAnnotations.h"
#include "report/TableSpec.h"

namespace ts {

// A row per rank and annotation name: instances, their time (HTA's sum,
// mean, std, min, max), the kernels under them and their GPU time; then a
// row for the work under no annotation.
table::TableSpec annotationTable(const std::vector<AnnotationBreakdown>& ranks);
// A row per rank, annotation and kernel under it: calls, time, longest.
table::TableSpec annotatedKernelTable(const std::vector<AnnotationBreakdown>& ranks);

// {"annotations": "gpu"|"cpu", "ranks": [{"rank", "annotations": [{"name",
//  "count", "total_us", ..., "kernels", "kernel_time_us"}], "kernels": [...],
//  "unannotated_kernels", "unannotated_us"}]}
nlohmann::json annotationsJson(const std::vector<AnnotationBreakdown>& ranks);

} // namespace ts
