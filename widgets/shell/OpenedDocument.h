#pragma once
// What opening a path produced: a run (its records, and its trace when it has
// one) or a bare Chrome trace. Several can be open at once (DocumentSelector);
// each keeps its trace and GPU analysis, so showing one again is cheap.
#include <cstddef>
#include <memory>
#include <optional>

#include <QMetaType>
#include <QString>

#include "analysis/DistributedView.h"
#include "analysis/GpuDiagnoses.h"
#include "analysis/GpuTraceAnalysis.h"
#include "analysis/MemoryCategories.h"
#include "analysis/MemoryView.h"
#include "analysis/ModuleView.h"
#include "analysis/TimelineTracks.h"
#include "report/RunDirectory.h"
#include "shell/OpenTimings.h"
#include "snapshot/MemorySnapshot.h"
#include "trace/ReadProgress.h"
#include "trace/Trace.h"

namespace ts::gui {

// What the Operators, Kernels, Memory and Modules tabs need beyond the
// Overview and the Timeline: the full GPU analysis (its operator tree is the
// largest part of it, 72 B per host op) and the memory and module views. A
// large trace opens without them; the first of those tabs shown computes them
// (DeferredViews) and keeps them here, for every copy of the document.
struct DeferredAnalysis {
    // What the Overview shows until `full` is made (GpuAnalysisScope::Overview).
    std::shared_ptr<const GpuTraceAnalysis> overview;
    std::shared_ptr<const GpuTraceAnalysis> full;
    std::shared_ptr<const MemoryView> memory;
    std::shared_ptr<const ModuleView> modules;
    std::shared_ptr<const GpuDiagnoses> diagnoses; // HTA's diagnoses
    // The trace's launch links (the timeline's, from the Overview's
    // analysis or its cache): HTA's diagnoses need these alone, so they are
    // made without the full analysis (null: found again).
    std::shared_ptr<const LaunchIndex> launches;

    bool done() const { return full != nullptr; }
    // The full analysis once made (it holds the Overview's too), the Overview's until then.
    std::shared_ptr<const GpuTraceAnalysis> analysis() const { return full ? full : overview; }
};
// Computes all of them (off the GUI thread); never throws for a readable
// trace but Cancelled, once `cancel` is requested.
DeferredAnalysis completeAnalysis(const Trace& trace, const CancelFlag* cancel = nullptr);

// Traces with more events than this open with the Overview and the Timeline
// only (0: every trace; the default keeps small traces' tabs instant).
inline constexpr size_t kDeferViewsAboveEvents = 500000;

struct OpenedDocument {
    QString path;
    std::optional<RunRecord> run;
    std::shared_ptr<const Trace> trace;
    // Of `trace`, made with it off the GUI thread (null when `deferred` is
    // set: it holds the analysis then).
    std::shared_ptr<const GpuTraceAnalysis> gpu_analysis;
    // A large trace's views still to compute (null: all were computed).
    std::shared_ptr<DeferredAnalysis> deferred;
    std::shared_ptr<const MemoryView> memory;      // of `trace`, also off the GUI thread
    std::shared_ptr<const ModuleView> modules;     // likewise
    std::shared_ptr<const GpuDiagnoses> diagnoses; // likewise
    std::shared_ptr<const TimelineTracks> tracks;  // the timeline's rows and launch links
    // The first span's ranks one above the other for the timeline (null: the
    // timeline shows `trace`); `tracks` are then this trace's.
    std::shared_ptr<const Trace> timeline_trace;
    // A folder of per-rank traces: each span's Distributed view (`trace` is
    // the first span's lowest rank), or why the ranks form none.
    std::shared_ptr<const std::vector<DistributedView>> distributed;
    QString distributed_error;
    // A PyTorch allocator snapshot (a pickle) instead of a trace.
    std::shared_ptr<const MemorySnapshot> snapshot;
    // torch.profiler's export_memory_timeline rows (memory by category) instead of a trace.
    std::shared_ptr<const CategoryTimeline> categories;
    QString trace_path;
    QString error;          // the path could not be opened at all
    QString trace_error;    // the run opened, its trace did not
    bool cancelled = false; // the user stopped the load: nothing to show
    OpenTimes times;        // of the trace's read and analysis (--timings)

    bool ok() const { return error.isEmpty() && !cancelled; }
    // The GPU analysis of `trace` as far as it is made (null without a trace).
    std::shared_ptr<const GpuTraceAnalysis> analysis() const {
        return deferred ? deferred->analysis() : gpu_analysis;
    }
    QString title() const;
};

// The absolute path a document opened from `path` is known by (run.json
// means its run directory), so the same document is recognised.
QString documentPath(const QString& path);

// Opens `path` (run directory, its run.json, a trace file, an allocator
// snapshot's pickle, an export_memory_timeline file, or a folder of
// per-rank traces; a folder holding a single trace opens that trace). Blocking;
// never throws: problems end up in error / trace_error, a cancel (through
// `progress`, while the trace is read) in `cancelled`.
// Traces of more than `defer_views_above` events leave the full analysis and
// the memory and module views to `deferred`.
OpenedDocument openDocument(const QString& path, const ReadProgress& progress = {},
                            size_t defer_views_above = kDeferViewsAboveEvents);

} // namespace ts::gui

Q_DECLARE_METATYPE(ts::gui::OpenedDocument)
