#pragma once
// The Overview cache: opening a large trace again shows its Overview and its
// Timeline from what the last open computed, kept beside the trace's index
// in the trace cache (trace/TraceCache.h, "<hash>.tsov"). The index spares
// reading the JSON; this spares the GPU analysis the first views wait for
// (0.6 of 0.8 s when a 1 GB GPU trace was reopened). The file names the
// trace (the index's key), the analysis options and the build, so a trace
// that changed, other options or another build's analysis code make it
// ignored and replaced: like the index, it can only make opening faster,
// never different. The other views (Operators, Kernels, Memory, Modules)
// still analyse the trace when first shown.
#include <optional>
#include <string>

#include "analysis/OverviewCacheFormat.h"
#include "trace/TraceCache.h"

namespace ts {

// The file's extension in the trace cache (one of kTraceCacheCompanions).
inline constexpr const char* kOverviewCacheExtension = ".tsov";

// The snapshot of the trace `opening` opened (openTrace), or nullopt (with
// the reason in `why`) when the trace is not cached or has no usable file.
std::optional<OverviewSnapshot> loadOverviewSnapshot(const Trace& trace,
                                                     const TraceOpening& opening,
                                                     const GpuAnalysisOptions& options,
                                                     std::string* why = nullptr);

// Keeps `analysis` of that trace, with the timeline's launches and step
// spans, atomically, unless the trace is not cached or changed since it was
// opened. Never throws: false with the reason in `note` when nothing was
// kept.
bool keepOverviewSnapshot(const GpuTraceAnalysis& analysis, const LaunchIndex& launches,
                          const std::vector<StepSpan>& steps, const Trace& trace,
                          const TraceOpening& opening, const GpuAnalysisOptions& options,
                          std::string* note = nullptr);

} // namespace ts
