#pragma once
// What opening a source produced, for every view of the GUI and the CLI: a
// run (its records, and its trace when it was profiled), a trace, a folder
// of per-rank traces, an allocator snapshot or a memory timeline, with the
// trace's analysis made off the thread that shows it. Several can be open at
// once; copies share the trace and the analysis, so showing one again is
// cheap. Sources (sources/SourceRegistry.h) fill it; the views read it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/DistributedView.h"
#include "analysis/MemoryCategories.h"
#include "analysis/TimelineTracks.h"
#include "experiments/ReportReader.h"
#include "report/RunDirectory.h"
#include "report/ViewCatalog.h"
#include "snapshot/MemorySnapshot.h"
#include "sources/DocumentAnalysis.h"
#include "trace/Trace.h"

namespace ts::sources {

struct SourceKind;

// How long the trace took to read and to analyse, and whether it came from
// its index (`trainscope --timings`, bench_trace_import).
struct OpenTimes {
    double read_s = 0;
    double analysis_s = 0;
    bool from_index = false;
    // The Overview and the timeline's launches came from the Overview cache.
    bool overview_cached = false;
};

struct Document {
    std::string path;                   // absolute; a run's directory, not its run.json
    const SourceKind* source = nullptr; // what it was opened as (null: not opened)
    std::optional<RunRecord> run;
    std::shared_ptr<const Trace> trace;
    // The analysis of `trace`, shared by every copy and completed in place,
    // on the thread that shows the document, for a large trace (`deferred`).
    std::shared_ptr<DocumentAnalysis> analysis = std::make_shared<DocumentAnalysis>();
    // A large trace: its views beyond the Overview and the Timeline are made
    // when first shown (completeFor).
    bool deferred = false;
    std::shared_ptr<const TimelineTracks> tracks; // the timeline's rows and launch links
    // The first span's ranks one above the other for the timeline (null: the
    // timeline shows `trace`); `tracks` are then this trace's.
    std::shared_ptr<const Trace> timeline_trace;
    // A folder of per-rank traces: each span's Distributed view (`trace` is
    // the first span's lowest rank), or why the ranks form none.
    std::shared_ptr<const std::vector<DistributedView>> distributed;
    std::string distributed_error;
    std::shared_ptr<const MemorySnapshot> snapshot;     // a PyTorch allocator snapshot
    std::shared_ptr<const CategoryTimeline> categories; // export_memory_timeline's rows
    // A sweep, ladder or pruning study's directory, read back.
    std::shared_ptr<const ExperimentReport> experiment;
    // What the views call a document a stream made ("Profiling window 2 of
    // the current run: ..."), "" for one opened from a path.
    std::string label;
    std::string trace_path;
    std::string error;       // the path could not be opened at all
    std::string trace_error; // a run opened, its trace did not
    bool cancelled = false;  // the user stopped the load: nothing to show
    OpenTimes times;

    bool ok() const { return error.empty() && !cancelled; }
    // Whether the document holds what a view reading `input` needs.
    bool provides(views::Input input) const;
    // The run's name and folder, or the file's name.
    std::string title() const;
};

} // namespace ts::sources
