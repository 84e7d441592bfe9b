#include "shell/OpenedDocument.h"

#include <chrono>

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include "analysis/OverviewCache.h"
#include "shell/TraceFile.h"
#include "snapshot/SnapshotReader.h"
#include "trace/RankFolder.h"
#include "trace/RankTimeline.h"
#include "util/BackgroundWrites.h"
#include "util/ThreadPool.h"

namespace ts::gui {
namespace {

bool isRunDirectory(const QFileInfo& info) {
    return info.isDir() &&
           QFileInfo(QDir(info.filePath()).filePath(QString::fromLatin1(run_files::kRunJson)))
               .isFile();
}

QFileInfo documentInfo(const QString& path) {
    const QFileInfo info(path);
    // run.json itself means its run directory.
    if (info.isFile() && info.fileName() == QLatin1String(run_files::kRunJson))
        return QFileInfo(info.absolutePath());
    return info;
}

// What a large trace opens with: the Overview and the Timeline. Opened
// through the trace cache (`opening`) and opened before, both come from its
// Overview cache and nothing is analysed. Otherwise the Overview's analysis
// runs, gives the timeline its launches and is then cut to its results
// (summaryOf), before the counter rows and the timeline's layout are made:
// its event lists and tree are the peak of opening a large GPU trace.
void analyzeLargeTrace(OpenedDocument& doc, const TraceOpening* opening, const CancelFlag* cancel) {
    const Trace& shown = doc.timeline_trace ? *doc.timeline_trace : *doc.trace;
    std::optional<OverviewSnapshot> cached;
    if (opening && !doc.timeline_trace)
        cached = loadOverviewSnapshot(*doc.trace, *opening, GpuAnalysisOptions{});
    TimelineTracks launches;
    doc.deferred = std::make_shared<DeferredAnalysis>();
    if (cached) {
        doc.deferred->overview =
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
        doc.deferred->overview =
            std::make_shared<const GpuTraceAnalysis>(summaryOf(std::move(analysis)));
    }
    TimelineTracks tracks = buildTimelineCounters(shown);
    tracks.launches = std::move(launches.launches);
    tracks.steps = std::move(launches.steps);
    doc.tracks = std::make_shared<const TimelineTracks>(std::move(tracks));
    if (!doc.timeline_trace) // the tracks are doc.trace's own
        doc.deferred->launches =
            std::shared_ptr<const LaunchIndex>(doc.tracks, &doc.tracks->launches);
    doc.times.overview_cached = cached.has_value();
}

// The views computed off the GUI thread for doc.trace: all of them, or for a
// large trace (more than `defer_views_above` events) what the Overview and
// the Timeline show. The timeline's counter rows need no analysis and are
// made beside the full one.
void analyzeTrace(OpenedDocument& doc, size_t defer_views_above, const CancelFlag* cancel,
                  const TraceOpening* opening = nullptr) {
    if (doc.trace->events.size() > defer_views_above)
        return analyzeLargeTrace(doc, opening, cancel);
    const Trace& shown = doc.timeline_trace ? *doc.timeline_trace : *doc.trace;
    TimelineTracks tracks;
    TaskGroup counters; // writes `tracks` only
    counters.run([&] { tracks = buildTimelineCounters(shown); });
    DeferredAnalysis all = completeAnalysis(*doc.trace, cancel);
    doc.gpu_analysis = all.full;
    doc.memory = all.memory;
    doc.modules = all.modules;
    doc.diagnoses = all.diagnoses;
    counters.wait();
    if (doc.timeline_trace)
        addTimelineLaunches(tracks, shown);
    else
        addTimelineLaunches(tracks, shown, &all.full->events, &all.full->links);
    doc.tracks = std::make_shared<const TimelineTracks>(std::move(tracks));
}

// A large trace's Overview, just computed, for its next open (written in
// the background, waited for at exit; atomically in any case).
void keepOverview(const OpenedDocument& doc, const TraceOpening& opening) {
    if (!doc.deferred || !doc.deferred->overview || doc.times.overview_cached) return;
    writeInBackground(
        [analysis = doc.deferred->overview, tracks = doc.tracks, trace = doc.trace, opening] {
            keepOverviewSnapshot(*analysis, tracks->launches, tracks->steps, *trace, opening,
                                 GpuAnalysisOptions{});
        });
}

// The user stopped the load: nothing of it is kept, nothing shown.
void markCancelled(OpenedDocument& doc) {
    OpenedDocument cancelled;
    cancelled.path = doc.path;
    cancelled.cancelled = true;
    doc = std::move(cancelled);
}

void loadTraceInto(OpenedDocument& doc, const QString& path, const ReadProgress& progress,
                   size_t defer_views_above) {
    doc.trace_path = path;
    using Clock = std::chrono::steady_clock;
    const auto seconds = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };
    try {
        const Clock::time_point start = Clock::now();
        TraceOpening opening;
        doc.trace = readTraceFile(path, progress, &opening);
        doc.times.from_index = opening.from_index;
        const Clock::time_point read = Clock::now();
        analyzeTrace(doc, defer_views_above, progress.cancel, &opening);
        doc.times.read_s = seconds(read - start);
        doc.times.analysis_s = seconds(Clock::now() - read);
        keepOverview(doc, opening);
    } catch (const Cancelled&) { // the read's or the analysis's
        markCancelled(doc);
    } catch (const std::exception& error) {
        doc.trace_error = QString::fromUtf8(error.what());
    }
}

// Every span of a rank folder: its Distributed view; the first readable
// span's lowest rank is the trace the other tabs show. A span whose files do
// not read (one still being written, two claiming a rank) or whose ranks form
// no view (a collective missing on one of them) is left out, with the
// reason; the other spans still open.
void loadRankFolder(OpenedDocument& doc, const std::vector<RankSpan>& spans,
                    const ReadProgress& progress, size_t defer_views_above) {
    auto views = std::make_shared<std::vector<DistributedView>>();
    QStringList problems;
    bool rank_trace = false; // doc.trace is the lowest rank's (none was open)
    try {
        for (const RankSpan& span : spans) {
            std::vector<RankTrace> ranks;
            try {
                ranks = readRankSpan(span, progress);
                DistributedView view = computeDistributedView(ranks);
                view.span = span.number;
                view.span_count = int(spans.size());
                views->push_back(std::move(view));
            } catch (const Cancelled&) {
                throw;
            } catch (const std::exception& error) {
                problems << QObject::tr("span %1: %2")
                                .arg(span.number)
                                .arg(QString::fromUtf8(error.what()));
            }
            if (!doc.trace && !ranks.empty()) {
                if (ranks.size() > 1)
                    doc.timeline_trace = std::make_shared<const Trace>(mergeRankTraces(ranks));
                doc.trace_path = QString::fromStdString(ranks.front().path.string());
                doc.trace = std::make_shared<const Trace>(std::move(ranks.front().trace));
                rank_trace = true;
            }
        }
        if (rank_trace) analyzeTrace(doc, defer_views_above, progress.cancel);
    } catch (const Cancelled&) {
        markCancelled(doc);
        return;
    } catch (const std::exception& error) {
        doc.error = QString::fromUtf8(error.what());
        return;
    }
    doc.distributed_error = problems.join(QStringLiteral("; "));
    if (!doc.trace && !doc.run && !problems.isEmpty()) doc.error = doc.distributed_error;
    if (!views->empty()) doc.distributed = std::move(views);
}

} // namespace

DeferredAnalysis completeAnalysis(const Trace& trace, const CancelFlag* cancel) {
    DeferredAnalysis all;
    GpuAnalysisOptions options;
    options.cancel = cancel;
    all.full = std::make_shared<const GpuTraceAnalysis>(analyzeGpuTrace(trace, options));
    checkCancel(cancel);
    all.memory = std::make_shared<const MemoryView>(computeMemoryView(trace, all.full->tree));
    all.modules = std::make_shared<const ModuleView>(computeModuleView(trace, all.full->tree));
    all.diagnoses = std::make_shared<const GpuDiagnoses>(diagnoseGpu(trace, all.full.get()));
    return all;
}

QString OpenedDocument::title() const {
    if (run)
        return QStringLiteral("%1 (%2)").arg(QString::fromStdString(run->info.config.name),
                                             QFileInfo(path).fileName());
    return QFileInfo(path).fileName();
}

QString documentPath(const QString& path) {
    return documentInfo(path).absoluteFilePath();
}

namespace {

// A pickle starts with PROTO (0x80): an allocator snapshot, not a trace.
bool isPickle(const QString& path) {
    QFile file(path);
    char first = 0;
    return file.open(QIODevice::ReadOnly) && file.read(&first, 1) == 1 &&
           static_cast<unsigned char>(first) == 0x80;
}

} // namespace

OpenedDocument openDocument(const QString& path, const ReadProgress& progress,
                            size_t defer_views_above) {
    OpenedDocument doc;
    const QFileInfo info = documentInfo(path);
    doc.path = info.absoluteFilePath();
    if (!info.exists()) {
        doc.error = QObject::tr("%1 does not exist.").arg(path);
        return doc;
    }
    if (info.isDir() && !isRunDirectory(info)) {
        std::vector<RankSpan> spans;
        try {
            spans = findRankSpans({std::filesystem::path(doc.path.toStdString())});
        } catch (const std::exception& error) {
            doc.error = QObject::tr("%1 is neither a run directory (it has no %2) nor a folder "
                                    "of traces: %3")
                            .arg(path, QString::fromLatin1(run_files::kRunJson),
                                 QString::fromUtf8(error.what()));
            return doc;
        }
        if (spans.size() == 1 && spans.front().files.size() == 1) {
            loadTraceInto(doc, QString::fromStdString(spans.front().files.front().path.string()),
                          progress, defer_views_above);
            if (!doc.trace && !doc.cancelled) doc.error = doc.trace_error;
            return doc;
        }
        loadRankFolder(doc, spans, progress, defer_views_above);
        return doc;
    }
    if (info.isDir()) {
        try {
            doc.run = loadRun(doc.path.toStdString(), true);
        } catch (const std::exception& error) {
            doc.error = QString::fromUtf8(error.what());
            return doc;
        }
        const QString trace = QDir(doc.path).filePath(QString::fromLatin1(run_files::kTraceJson));
        if (QFileInfo(trace).isFile()) loadTraceInto(doc, trace, progress, defer_views_above);
        // A data-parallel run: its ranks' traces form the Distributed view,
        // and the lowest rank's is the trace of the other tabs.
        if (QFileInfo(QDir(doc.path).filePath(QStringLiteral("ranks"))).isDir()) {
            std::vector<RankSpan> spans;
            try {
                spans = findRankSpans({std::filesystem::path(doc.path.toStdString())});
            } catch (const std::exception&) {
                return doc; // its ranks were not profiled
            }
            if (!spans.empty() && spans.front().files.size() > 1)
                loadRankFolder(doc, spans, progress, defer_views_above);
        }
        return doc;
    }
    if (isPickle(doc.path)) {
        try {
            doc.snapshot =
                std::make_shared<const MemorySnapshot>(readMemorySnapshot(doc.path.toStdString()));
        } catch (const std::exception& error) {
            doc.error = QString::fromUtf8(error.what());
        }
        return doc;
    }
    if (isCategoryTimelineFile(doc.path.toStdString())) {
        try {
            doc.categories = std::make_shared<const CategoryTimeline>(
                readCategoryTimeline(doc.path.toStdString()));
        } catch (const std::exception& error) {
            doc.error = QString::fromUtf8(error.what());
        }
        return doc;
    }
    loadTraceInto(doc, doc.path, progress, defer_views_above);
    if (!doc.trace) doc.error = doc.trace_error;
    return doc;
}

} // namespace ts::gui
