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

namespace ts {

struct TraceStatsOptions {
    std::string file;
    std::string format = "text";   // text | csv | json
    std::string group_by = "name"; // name | shapes
    std::string scope = "all";     // all | forward | backward
    std::string sort = "self_cpu"; // see opSortKeys()
    size_t limit = 0;              // rows, 0 = all
    // "" (the operator table above), overview, operators, kernels or
    // kernels-by-op; operators take --group-by name, shapes, stack or
    // shapes-stack and are sorted by device (else host) self time.
    std::string view;
    // --view memory only: the device ("GPU0", "CPU"; "" all) and the time
    // range [start, end) in microseconds from the start of the trace ("" open),
    // as text so that a bad value is reported with the option's name.
    std::string device, start_us, end_us;
    bool plugin_compatible = false; // reproduce the TensorBoard plugin's numbers exactly
    // A progress line on `err` while the trace is read (the CLI sets it when
    // stderr is a terminal).
    bool progress = false;
    // Through the trace cache (trace/TraceCache.h); --no-cache turns it off.
    bool cache = true;
    // --timings: where the time went (read, analysis, index), on `err`.
    bool timings = false;
    // --view distributed: `file` is a folder of per-rank traces (or the first
    // of several files, the others here), and `span` the profiling span
    // (1..n, in time order) to show.
    std::vector<std::string> more_files;
    int span = 1;
    // --view idle: HTA's consecutive_kernel_delay in microseconds ("" its 30).
    std::string kernel_wait_us;
    // --view launches: HTA's runtime_cutoff and launch_delay_cutoff ("" its 50 and 100).
    std::string runtime_cutoff_us, launch_delay_cutoff_us;
    // --view queue: the queue length counted as full ("" HTA's 1024).
    std::string max_queue_length;
    // --view annotations: "gpu" (gpu_user_annotation, HTA's default; also "")
    // or "cpu" (user_annotation, HTA's use_gpu_annotation=False).
    std::string annotation_side;
    // --view kernel-sequences: HTA's operator_name ("" every outermost
    // operator) and min_pattern_len ("" its 3).
    std::string operator_text, min_pattern_len;
    // --view critical-path: the window (a step's number, or an annotation's
    // name and 0-based instance; "" the first step), the rank of a folder
    // ("" the lowest) and what-if factors ("kernel:NAME=0.5").
    std::string step, annotation_name, instance, rank;
    std::vector<std::string> what_if;
};

// 0 on success; 2 for bad options or an unreadable/malformed file (the
// message on `err` names it).
int runTraceStats(const TraceStatsOptions& options, std::ostream& out, std::ostream& err);

} // namespace ts
