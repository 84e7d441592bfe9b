#pragma once
// `trainscope-cli trace-stats FILE`: the operator table of a Chrome trace
// (Trainscope's own trace.json or a torch.profiler export) as text, CSV or
// JSON; with --view, the GPU views of a torch.profiler (Kineto) trace as
// torch.profiler's TensorBoard plugin showed them (docs/gpu-traces.md); --view
// memory also reads Trainscope's own memory samples; --view distributed reads
// a folder of per-rank traces (docs/gpu-traces.md "Distributed view").
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "report/ViewOptions.h"

namespace ts {

struct TraceStatsOptions {
    std::string file;
    std::string format = "text"; // text | csv | json
    size_t limit = 0;            // rows, 0 = all
    // "" (the operator table above) or a view of the catalog shown on the
    // CLI (inspect/TraceViews.h).
    std::string view;
    // The options given to the view (or to the operator table), as typed:
    // each view declares those it takes (report/ViewCatalog.cpp), and they
    // are checked against that before anything is read.
    std::vector<views::GivenOption> view_options;
    bool plugin_compatible = false; // reproduce the TensorBoard plugin's numbers exactly
    // A progress line on `err` while the trace is read (the CLI sets it when
    // stderr is a terminal).
    bool progress = false;
    // Through the trace cache (trace/TraceCache.h); --no-cache turns it off.
    bool cache = true;
    // --timings: where the time went (read, analysis, index), on `err`.
    bool timings = false;
    // The views of a rank folder: `file` is a folder of per-rank traces, or
    // the first of several files, the others here.
    std::vector<std::string> more_files;
};

// 0 on success; 2 for bad options or an unreadable/malformed file (the
// message on `err` names it).
int runTraceStats(const TraceStatsOptions& options, std::ostream& out, std::ostream& err);

} // namespace ts
