#include "sources/RankDocument.h"

#include <algorithm>
#include <filesystem>

#include "analysis/RankSummaries.h"
#include "report/RunDirectory.h"

#include "sources/SourceOpeners.h"
#include "sources/TraceDocument.h"
#include "trace/RankTimeline.h"

namespace ts::sources {
namespace {

// Up to this many ranks the timeline shows them all, one above the other
// (their traces are read whole, as the view needs them anyway); beyond, the
// view comes from the ranks' summaries and the other views show the lowest
// rank (any other opens from the Distributed view).
constexpr size_t kRanksOnTimeline = 8;

// The span's view, or why there is none (`problems`); `ranks` keeps the
// traces read for the document's trace when the span is small.
void addSpanView(std::vector<DistributedView>& views, std::string& problems, const RankSpan& span,
                 size_t span_count, std::vector<RankTrace>& ranks, const OpenRequest& request) {
    try {
        SpanSummaries read = summarizeSpan(span, RankSummarySettings{}, request.progress,
                                           span.files.size() <= kRanksOnTimeline);
        ranks = std::move(read.traces); // the other tabs show them even without a view
        std::stable_sort(ranks.begin(), ranks.end(),
                         [](const RankTrace& a, const RankTrace& b) { return a.rank < b.rank; });
        DistributedView view = computeDistributedView(std::move(read.ranks), GpuAnalysisOptions{});
        view.left_out.insert(view.left_out.begin(), read.unreadable.begin(), read.unreadable.end());
        view.notes.insert(view.notes.end(), read.notes.begin(), read.notes.end());
        view.span = span.number;
        view.span_count = int(span_count);
        views.push_back(std::move(view));
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& error) {
        problems += (problems.empty() ? "" : "; ") + std::string("span ") +
                    std::to_string(span.number) + ": " + error.what();
    }
}

} // namespace

void loadRankSpans(Document& doc, const std::vector<RankSpan>& spans, const OpenRequest& request) {
    auto views = std::make_shared<std::vector<DistributedView>>();
    std::string problems;
    bool rank_trace = false; // doc.trace is the lowest rank's (none was open)
    try {
        for (const RankSpan& span : spans) {
            std::vector<RankTrace> ranks;
            addSpanView(*views, problems, span, spans.size(), ranks, request);
            if (!doc.trace && !ranks.empty()) {
                if (ranks.size() > 1)
                    doc.timeline_trace = std::make_shared<const Trace>(mergeRankTraces(ranks));
                doc.trace_path = ranks.front().path.string();
                doc.trace = std::make_shared<const Trace>(std::move(ranks.front().trace));
                rank_trace = true;
            }
        }
        if (rank_trace) analyzeDocumentTrace(doc, request);
        // A large folder: the lowest rank of the first view, when its trace is here.
        std::error_code ec;
        if (!doc.trace && !doc.run && !views->empty() &&
            std::filesystem::exists(views->front().ranks.front().path, ec))
            loadDocumentTrace(doc, views->front().ranks.front().path, request);
    } catch (const Cancelled&) {
        markCancelled(doc);
        return;
    }
    if (doc.cancelled) return;
    doc.distributed_error = problems;
    if (!doc.trace && !doc.run && views->empty() && !problems.empty())
        throw std::runtime_error(problems);
    if (!views->empty()) doc.distributed = std::move(views);
}

void openers::rankFolder(Document& doc, const SourceProbe& probe, const OpenRequest& request) {
    std::vector<RankSpan> spans;
    try {
        spans = findRankSpans({probe.path});
    } catch (const std::exception& error) {
        throw std::runtime_error(probe.path.string() + " is neither a run directory (it has no " +
                                 run_files::kRunJson + ") nor a folder of traces: " + error.what());
    }
    // A folder holding a single trace is that trace.
    if (spans.size() == 1 && spans.front().files.size() == 1) {
        doc.source = &sourceKind("trace");
        loadDocumentTrace(doc, spans.front().files.front().path, request);
        if (!doc.trace && !doc.cancelled) throw std::runtime_error(doc.trace_error);
        return;
    }
    loadRankSpans(doc, spans, request);
}

} // namespace ts::sources
