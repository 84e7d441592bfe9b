// A Trainscope run directory as a document: its records, its trace when it
// was profiled, and a data-parallel run's ranks' traces as its Distributed
// view (the lowest rank's then being the trace of the other views when the
// run kept none of its own).
#include <filesystem>

#include "report/RunDirectory.h"
#include "sources/RankDocument.h"
#include "sources/SourceOpeners.h"
#include "sources/TraceDocument.h"

namespace ts::sources {

void openers::run(Document& doc, const SourceProbe& probe, const OpenRequest& request) {
    doc.run = loadRun(probe.path, true);
    const std::filesystem::path trace = probe.path / run_files::kTraceJson;
    std::error_code ignored;
    if (std::filesystem::is_regular_file(trace, ignored)) loadDocumentTrace(doc, trace, request);
    if (doc.cancelled || !std::filesystem::is_directory(probe.path / "ranks", ignored)) return;
    std::vector<RankSpan> spans;
    try {
        spans = findRankSpans({probe.path});
    } catch (const std::exception&) {
        return; // its ranks were not profiled
    }
    if (!spans.empty() && spans.front().files.size() > 1) loadRankSpans(doc, spans, request);
}

} // namespace ts::sources
