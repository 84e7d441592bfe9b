#pragma once
// What opening a path produced: a run (its records, and its trace when it has
// one) or a bare Chrome trace. Several can be open at once (DocumentSelector);
// each keeps its trace and GPU analysis, so showing one again is cheap.
#include <memory>
#include <optional>

#include <QMetaType>
#include <QString>

#include "analysis/DistributedView.h"
#include "analysis/GpuTraceAnalysis.h"
#include "analysis/MemoryView.h"
#include "analysis/ModuleView.h"
#include "analysis/TimelineTracks.h"
#include "report/RunDirectory.h"
#include "trace/ReadProgress.h"
#include "trace/Trace.h"

namespace ts::gui {

struct OpenedDocument {
    QString path;
    std::optional<RunRecord> run;
    std::shared_ptr<const Trace> trace;
    // Of `trace`, made with it off the GUI thread.
    std::shared_ptr<const GpuTraceAnalysis> gpu_analysis;
    std::shared_ptr<const MemoryView> memory;     // of `trace`, also off the GUI thread
    std::shared_ptr<const ModuleView> modules;    // likewise
    std::shared_ptr<const TimelineTracks> tracks; // the timeline's rows and launch links
    // The first span's ranks one above the other for the timeline (null: the
    // timeline shows `trace`); `tracks` are then this trace's.
    std::shared_ptr<const Trace> timeline_trace;
    // A folder of per-rank traces: each span's Distributed view (`trace` is
    // the first span's lowest rank), or why the ranks form none.
    std::shared_ptr<const std::vector<DistributedView>> distributed;
    QString distributed_error;
    QString trace_path;
    QString error;          // the path could not be opened at all
    QString trace_error;    // the run opened, its trace did not
    bool cancelled = false; // the user stopped the load: nothing to show

    bool ok() const { return error.isEmpty() && !cancelled; }
    QString title() const;
};

// The absolute path a document opened from `path` is known by (run.json
// means its run directory), so the same document is recognised.
QString documentPath(const QString& path);

// Opens `path` (run directory, its run.json, a trace file, or a folder of
// per-rank traces; a folder holding a single trace opens that trace). Blocking;
// never throws: problems end up in error / trace_error, a cancel (through
// `progress`, while the trace is read) in `cancelled`.
OpenedDocument openDocument(const QString& path, const ReadProgress& progress = {});

} // namespace ts::gui

Q_DECLARE_METATYPE(ts::gui::OpenedDocument)
