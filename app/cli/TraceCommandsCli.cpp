#include "TraceCommandsCli.h"

#include "inspect/PresetsCommand.h"
#include "inspect/ReadProgressLine.h"
#include "inspect/TraceViews.h"

namespace ts::cli {

namespace {

// --no-cache: the trace read from its JSON, no index kept (`cache` false).
void addNoCacheFlag(CLI::App* cmd, bool& cache) {
    bool* flag = &cache;
    cmd->add_flag_callback(
        "--no-cache", [flag] { *flag = false; },
        "read the JSON even if the trace has a cached index, and keep none");
}

void addTraceStats(CLI::App& app, TraceCommands& c) {
    TraceStatsOptions& trace = c.trace;
    auto* cmd = app.add_subcommand("trace-stats", "operator table of a Chrome trace file");
    cmd->add_option("file", trace.file, "trace.json (Trainscope or torch.profiler)")->required();
    cmd->add_option("more", trace.more_files,
                    "--view distributed: more per-rank trace files (or give their folder)");
    cmd->add_option("--format", trace.format, "text, csv or json");
    cmd->add_option("--group-by", trace.group_by, "name or shapes");
    cmd->add_option("--scope", trace.scope, "all, forward or backward");
    cmd->add_option("--sort", trace.sort, "column to sort by");
    cmd->add_option("--limit", trace.limit, "rows to print (0 = all)");
    cmd->add_option("--view", trace.view, cliViewHelp());
    cmd->add_option("--span", trace.span,
                    "--view distributed: the profiling span, 1..n in time order");
    cmd->add_option("--device", trace.device, "--view memory: one device (GPU0, CPU)");
    cmd->add_option("--kernel-wait-us", trace.kernel_wait_us,
                    "--view idle: gaps shorter than this before work launched in time are kernel "
                    "wait (default 30, HTA's)");
    cmd->add_option("--runtime-cutoff-us", trace.runtime_cutoff_us,
                    "--view launches: runtime calls longer than this are outliers (default 50)");
    cmd->add_option("--launch-delay-cutoff-us", trace.launch_delay_cutoff_us,
                    "--view launches: launch delays longer than this are outliers (default 100)");
    cmd->add_option("--max-queue-length", trace.max_queue_length,
                    "--view queue: a stream's queue counts as full from this length (default "
                    "1024, CUDA's and HTA's)");
    cmd->add_option("--annotations", trace.annotation_side,
                    "--view annotations: gpu (the ranges as the GPU ran them, default) or cpu");
    cmd->add_option("--operator", trace.operator_text,
                    "--view kernel-sequences: the calls whose name contains this text (default: "
                    "every outermost operator)");
    cmd->add_option("--min-pattern-len", trace.min_pattern_len,
                    "--view kernel-sequences: calls with fewer kernels are left out (default 3)");
    cmd->add_option("--step", trace.step,
                    "--view critical-path: the step (ProfilerStep#N) to analyse (default: the "
                    "first)");
    cmd->add_option("--annotation", trace.annotation_name,
                    "--view critical-path: analyse an instance of the annotation whose name "
                    "contains this text instead");
    cmd->add_option("--instance", trace.instance,
                    "--view critical-path: which instance of --annotation (0 = the first)");
    cmd->add_option("--rank", trace.rank,
                    "--view critical-path on a folder of ranks: the rank (default: the lowest)");
    cmd->add_option("--what-if", trace.what_if,
                    "--view critical-path: kernel:NAME=F, op:NAME=F or category:NAME=F (F = "
                    "factor on their time, 0.5 = twice as fast); repeatable");
    cmd->add_option("--start-us", trace.start_us,
                    "--view memory: tables from this time (us from the trace start)");
    cmd->add_option("--end-us", trace.end_us, "--view memory: tables up to this time (exclusive)");
    cmd->add_flag("--plugin-compatible", trace.plugin_compatible,
                  "the TensorBoard plugin's exact rules (see docs/gpu-traces.md)");
    addNoCacheFlag(cmd, trace.cache);
    cmd->add_flag("--timings", trace.timings, "print where the time went on stderr");
    c.trace_cmd = cmd;
}

void addTraceDiff(CLI::App& app, TraceCommands& c) {
    TraceDiffCommandOptions& diff = c.diff;
    auto* cmd =
        app.add_subcommand("trace-diff", "two traces or runs compared: operators, kernels, steps");
    cmd->add_option("a", diff.a, "baseline: trace file, run directory or run.json")->required();
    cmd->add_option("b", diff.b, "compared: trace file, run directory or run.json")->required();
    cmd->add_option("--format", diff.format, "text, csv or json");
    cmd->add_option("--limit", diff.limit, "rows per table (0 = 10 in text, all otherwise)");
    cmd->add_option("--step-a", diff.step_a, "step of A to align (0-based; default median)");
    cmd->add_option("--step-b", diff.step_b, "step of B to align (0-based; default median)");
    cmd->add_flag("--plugin-compatible", diff.plugin_compatible,
                  "the TensorBoard plugin's exact rules (see docs/gpu-traces.md)");
    c.diff_cmd = cmd;
}

void addTraceExport(CLI::App& app, TraceCommands& c) {
    TraceExportOptions& e = c.export_trace;
    auto* cmd =
        app.add_subcommand("trace-export", "a trace written again with its analysis marked");
    cmd->add_option("file", e.trace.file, "trace.json (torch.profiler or Trainscope)")->required();
    cmd->add_option("--sqlite", e.sqlite_out,
                    "write the trace-query tables into an SQLite database file (docs/sql.md)");
    cmd->add_option("--critical-path", e.critical_path_out,
                    "write the trace with its critical path as a row of its own (Chrome trace)");
    cmd->add_option("--step", e.trace.step, "the step whose critical path (default: the first)");
    cmd->add_option("--annotation", e.trace.annotation_name,
                    "or an instance of the annotation whose name contains this text");
    cmd->add_option("--instance", e.trace.instance, "which instance of --annotation (0 = first)");
    addNoCacheFlag(cmd, e.trace.cache);
    c.export_cmd = cmd;
}

void addTraceQuery(CLI::App& app, TraceCommands& c) {
    TraceQueryOptions& q = c.query;
    auto* cmd = app.add_subcommand("trace-query", "SQL over a trace (docs/sql.md)");
    cmd->add_option("file", q.file,
                    "trace.json (torch.profiler or Trainscope), or a folder of rank traces")
        ->required();
    cmd->add_option("sql", q.sql, "one SELECT over slices, kernels, launches, ... (--schema)");
    cmd->add_option("--format", q.format, "text, csv, tsv or json");
    cmd->add_option("--max-rows", q.max_rows, "stop after this many rows (0 = all)");
    cmd->add_flag("--schema", q.schema, "list the tables and their columns");
    addNoCacheFlag(cmd, q.cache);
    c.query_cmd = cmd;
}

void addMemoryCommands(CLI::App& app, TraceCommands& c) {
    MemoryStatsOptions& m = c.memory;
    auto* stats = app.add_subcommand(
        "memory-stats",
        "a PyTorch allocator snapshot (_dump_snapshot's pickle): peaks, stacks, OOMs");
    stats->add_option("snapshot", m.file, "snapshot.pickle")->required();
    stats->add_option("--view", m.view,
                      "summary, peak, flame (what was alive, frame by frame), dump (what the "
                      "segments held, by stack; needs no history), segments, timeline, oom or "
                      "state");
    stats->add_option("--entry", m.entry,
                      "peak, flame, state: after this trace entry instead of the peak's");
    stats->add_option("--min-size", m.min_size,
                      "peak, flame, timeline: allocations of at least this size (1MiB, 4096)");
    stats->add_option("--frame", m.frame,
                      "peak, flame, timeline: allocations whose stack has a frame with this text");
    stats->add_option("--group", m.group,
                      "peak: group what was alive by stack, frame (the innermost user frame) "
                      "or size");
    stats->add_option("--entries", m.entries,
                      "peak, flame, timeline: trace entries FIRST:LAST (the peak is looked for "
                      "there)");
    stats->add_option("--format", m.format, "text, csv or json");
    stats->add_option("--device", m.device, "peak, timeline: one device");
    stats->add_option(
        "--limit", m.limit,
        "rows per table (0 = all); timeline: points (default 200); json: stacks (10)");
    c.memory_cmd = stats;
    auto* diff =
        app.add_subcommand("memory-diff", "two allocator snapshots: what grew from A to B");
    diff->add_option("a", m.file, "the earlier snapshot.pickle")->required();
    diff->add_option("b", m.other, "the later snapshot.pickle")->required();
    diff->add_option("--format", m.format, "text, csv or json");
    diff->add_option("--limit", m.limit, "rows per table (0 = all)");
    c.memory_diff_cmd = diff;
}

} // namespace

void addTraceCommands(CLI::App& app, TraceCommands& commands) {
    commands.presets_cmd = app.add_subcommand("presets", "list the shipped experiment presets");
    addTraceStats(app, commands);
    addTraceDiff(app, commands);
    addTraceExport(app, commands);
    addTraceQuery(app, commands);
    addMemoryCommands(app, commands);
    commands.cache_cmd = app.add_subcommand(
        "trace-cache", "the indexes that reopen large traces quickly: where, how large");
    commands.cache_cmd->add_flag("--clear", commands.cache.clear, "remove them all");
}

std::optional<int> runTraceCommands(TraceCommands& commands, std::ostream& out, std::ostream& err) {
    if (*commands.presets_cmd) return presetsCommand(out, err);
    if (*commands.trace_cmd) {
        commands.trace.progress = stderrIsTerminal();
        return runTraceStats(commands.trace, out, err);
    }
    if (*commands.diff_cmd) return runTraceDiff(commands.diff, out, err);
    if (*commands.cache_cmd) return runTraceCache(commands.cache, out, err);
    if (*commands.export_cmd) return runTraceExport(commands.export_trace, out, err);
    if (*commands.query_cmd) return runTraceQuery(commands.query, out, err);
    if (*commands.memory_cmd) return runMemoryStats(commands.memory, out, err);
    if (*commands.memory_diff_cmd) return runMemoryDiff(commands.memory, out, err);
    return std::nullopt;
}

} // namespace ts::cli
