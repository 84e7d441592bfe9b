#pragma once
// Reading a span of rank traces into their summaries (RankTraceSummary.h), as
// many at once as the pool has threads, so that memory holds the
// summaries plus the traces being read, never the whole folder. A rank's
// summary is taken, instead of its trace, from `<trace>.tsrank` beside the
// trace (written by `trainscope-cli trace-index` where the trace was
// recorded; the only thing there when the traces stayed on their nodes) or
// from the trace cache ("<hash>.tsrank", written by the first read here):
// reopening a 1,024-rank folder reads only those.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/RankTraceSummary.h"
#include "trace/ReadProgress.h"
#include "trace/TraceCache.h"

namespace ts {

struct RankSummarySettings {
    GpuAnalysisOptions options;
    TraceCacheSettings cache; // where summaries made here are kept
};

struct SpanSummaries {
    std::vector<RankTraceSummary> ranks; // in the span's file order
    std::vector<std::string> unreadable; // "path: why" for files that gave none
    size_t from_summary_files = 0;       // of ranks, taken from a summary file
    std::vector<std::string> notes;      // e.g. summaries ignored, and why
    std::vector<RankTrace> traces;       // when keep_traces: the traces read (not summarised)
};

// Every file of the span, in parallel. A trace that cannot be read (cut
// short, not JSON) is `unreadable`, never an exception; cancelling through
// `progress` (which reports files done of files) throws TraceReadCancelled.
SpanSummaries summarizeSpan(const RankSpan& span, const RankSummarySettings& settings,
                            const ReadProgress& progress = {}, bool keep_traces = false);

// The summary file beside `trace`: `<trace>.tsrank`.
std::filesystem::path summaryBeside(const std::filesystem::path& trace);

// Reads `file` and writes its summary beside it (atomically); returns the
// summary. Throws what reading the trace throws, or std::runtime_error
// naming the summary file that cannot be written.
RankTraceSummary writeSummaryBeside(const RankFile& file, size_t position,
                                    const GpuAnalysisOptions& options);

} // namespace ts
