#pragma once
// `trainscope-cli trace-index TRACE|FOLDER...`: writes each rank trace's
// summary beside it (`<trace>.tsrank`, analysis/RankSummaryFile.h), where
// the trace was recorded: on each node, by the job's own launcher (a Slurm
// array task, torchrun's ranks, a torch.profiler trace handler). A folder
// of the traces, or of only their summaries gathered from the nodes, then
// opens in the Distributed view without reading a trace.
#include <ostream>
#include <string>
#include <vector>

namespace ts {

struct TraceIndexOptions {
    std::vector<std::string> inputs; // trace files and folders of them
    bool plugin_compatible = false;
    bool progress = false; // a progress line on `err` (the CLI sets it on a terminal)
};

// 0 when every trace got its summary; 2 (bad input) when a trace could not
// be read, after writing the others' (each failure named on `err`).
int runTraceIndex(const TraceIndexOptions& options, std::ostream& out, std::ostream& err);

} // namespace ts
