#pragma once
// bench_trace_import's figures and how they are printed: a markdown table
// for docs/benchmarks.md and JSON for scripts. The targets are
// printed as facts (met or not), never turned into an exit status.
#include <string>
#include <vector>

#include "ChildProcess.h"
#include "TraceRepeater.h"

namespace bench {

// Perfetto's trace processor reads Chrome JSON at about this rate
// (pytorch/pytorch#138360); a constant row, not a run.
inline constexpr double kPerfettoMBps = 29.0;

struct ToolRuns {
    std::string label;
    std::vector<ChildRun> runs;
};

struct ImportBench {
    GeneratedTrace trace;
    std::string source;
    ToolRuns trainscope; // cold: a fresh TRAINSCOPE_CACHE_DIR each run
    ToolRuns warm;       // the same cache dir again (--warm); empty if not run
    ToolRuns python;     // empty when no Python was found
    // The GUI (--gui): spawn to its first drawn Timeline frame, cold and
    // reopened; empty when not asked for.
    ToolRuns gui, gui_warm;
    // Each tool once on the small source trace: what a process costs before
    // the trace's size counts (LibTorch's libraries, the interpreter).
    ChildRun trainscope_floor, python_floor;
    std::string python_note;    // why Python did not run
    bool cache_written = false; // whether a cold run left anything in its cache dir
};

// Figures of the successful runs of one tool.
struct ToolFigures {
    int ok_runs = 0;
    double median_s = 0, min_s = 0;
    double mb_per_s = 0;                              // JSON MB (10^6 bytes) / median
    double peak_rss_mb = 0;                           // the largest of the runs
    double rss_per_json = 0;                          // peak RSS / JSON bytes
    double python_load_s = 0, python_aggregate_s = 0; // medians, Python only
};

ToolFigures figuresOf(const ToolRuns& tool, uint64_t json_bytes);

std::string markdownReport(const ImportBench& bench);
std::string jsonReport(const ImportBench& bench);

} // namespace bench
