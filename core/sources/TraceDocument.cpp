#include "sources/TraceDocument.h"

#include <chrono>

#include "analysis/OverviewCache.h"
#include "sources/SourceOpeners.h"
#include "util/BackgroundWrites.h"
#include "util/ThreadPool.h"

namespace ts::sources {
namespace {

// What a large trace opens with: the Overview and the Timeline. Opened
// through the trace cache (`opening`) and opened before, both come from its
// Overview cache and nothing is analysed. Otherwise the Overview's analysis
// runs, gives the timeline its launches and is then cut to its results
// (summaryOf), before the counter rows and the timeline's layout are made:
// its event lists and tree are the peak of opening a large GPU trace.
void analyzeLargeTrace(Document& doc, const TraceOpening* opening, const CancelFlag* cancel) {
    const Trace& shown = doc.timeline_trace ? *doc.timeline_trace : *doc.trace;
    std::optional<OverviewSnapshot> cached;
    if (opening && !doc.timeline_trace)
        cached = loadOverviewSnapshot(*doc.trace, *opening, GpuAnalysisOptions{});
    TimelineTracks launches;
    doc.deferred = true;
    if (cached) {
        doc.analysis->overview =
            std::make_shared<const GpuTraceAnalysis>(std::move(cached->summary));
        launches.launches = std::move(cached->launches);
        launches.steps = std::move(cached->steps);
    } else {
        GpuAnalysisOptions options;
        options.cancel = cancel;
        GpuTraceAnalysis analysis =
            analyzeGpuTrace(*doc.trace, options, GpuAnalysisScope::Overview);
        if (doc.timeline_trace)
            addTimelineLaunches(launches, shown);
        else
            addTimelineLaunches(launches, shown, &analysis.events, &analysis.links);
        doc.analysis->overview =
            std::make_shared<const GpuTraceAnalysis>(summaryOf(std::move(analysis)));
    }
    TimelineTracks tracks = buildTimelineCounters(shown);
    tracks.launches = std::move(launches.launches);
    tracks.steps = std::move(launches.steps);
    doc.tracks = std::make_shared<const TimelineTracks>(std::move(tracks));
    if (!doc.timeline_trace) // the tracks are doc.trace's own
        doc.analysis->launches =
            std::shared_ptr<const LaunchIndex>(doc.tracks, &doc.tracks->launches);
    doc.times.overview_cached = cached.has_value();
}

// A large trace's Overview, just computed, for its next open (written in
// the background, waited for at exit; atomically in any case).
void keepOverview(const Document& doc, const TraceOpening& opening) {
    const std::shared_ptr<const GpuTraceAnalysis> overview = doc.analysis->overview;
    if (!doc.deferred || !overview || doc.times.overview_cached) return;
    writeInBackground([overview, tracks = doc.tracks, trace = doc.trace, opening] {
        keepOverviewSnapshot(*overview, tracks->launches, tracks->steps, *trace, opening,
                             GpuAnalysisOptions{});
    });
}

} // namespace

std::shared_ptr<const Trace> readDocumentTrace(const std::filesystem::path& path,
                                               const ReadProgress& progress, TraceOpening* opened) {
    const TraceCacheSettings settings;
    TraceOpening opening;
    auto trace = std::make_shared<const Trace>(openTrace(path, progress, settings, opening));
    if (opened) *opened = opening;
    // The index is written beside the analysis, not before it: the document
    // shows as soon as it is analysed, and the writes are waited for at exit,
    // so one under way completes (it is atomic in any case).
    if (!opening.from_index && opening.key)
        writeInBackground(
            [trace, settings, opening]() mutable { keepTraceIndex(*trace, settings, opening); });
    return trace;
}

void analyzeDocumentTrace(Document& doc, const OpenRequest& request, const TraceOpening* opening) {
    const CancelFlag* cancel = request.progress.cancel;
    if (doc.trace->events.size() > request.defer_views_above)
        return analyzeLargeTrace(doc, opening, cancel);
    const Trace& shown = doc.timeline_trace ? *doc.timeline_trace : *doc.trace;
    TimelineTracks tracks;
    TaskGroup counters; // writes `tracks` only
    counters.run([&] { tracks = buildTimelineCounters(shown); });
    DocumentAnalysis all = completeAnalysis(*doc.trace, cancel);
    counters.wait();
    if (doc.timeline_trace)
        addTimelineLaunches(tracks, shown);
    else
        addTimelineLaunches(tracks, shown, &all.full->events, &all.full->links);
    *doc.analysis = std::move(all);
    doc.tracks = std::make_shared<const TimelineTracks>(std::move(tracks));
}

void markCancelled(Document& doc) {
    Document cancelled;
    cancelled.path = doc.path;
    cancelled.source = doc.source;
    cancelled.cancelled = true;
    doc = std::move(cancelled);
}

void loadDocumentTrace(Document& doc, const std::filesystem::path& path,
                       const OpenRequest& request) {
    doc.trace_path = path.string();
    using Clock = std::chrono::steady_clock;
    const auto seconds = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };
    try {
        const Clock::time_point start = Clock::now();
        TraceOpening opening;
        doc.trace = readDocumentTrace(path, request.progress, &opening);
        doc.times.from_index = opening.from_index;
        const Clock::time_point read = Clock::now();
        analyzeDocumentTrace(doc, request, &opening);
        doc.times.read_s = seconds(read - start);
        doc.times.analysis_s = seconds(Clock::now() - read);
        keepOverview(doc, opening);
    } catch (const Cancelled&) { // the read's or the analysis's
        markCancelled(doc);
    } catch (const std::exception& error) {
        doc.trace.reset();
        doc.trace_error = error.what();
    }
}

void openers::trace(Document& doc, const SourceProbe& probe, const OpenRequest& request) {
    loadDocumentTrace(doc, probe.path, request);
    if (!doc.trace && !doc.cancelled) throw std::runtime_error(doc.trace_error);
}

} // namespace ts::sources
