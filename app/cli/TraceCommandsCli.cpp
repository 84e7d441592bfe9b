#include "TraceCommandsCli.h"

#include <memory>

#include "inspect/PresetsCommand.h"
#include "inspect/ReadProgressLine.h"
#include "inspect/TraceViews.h"
#include "report/ViewCatalog.h"

namespace ts::cli {

namespace {

// --no-cache: the trace read from its JSON, no index kept (`cache` false).
void addNoCacheFlag(CLI::App* cmd, bool& cache) {
    bool* flag = &cache;
    cmd->add_flag_callback(
        "--no-cache", [flag] { *flag = false; },
        "read the JSON even if the trace has a cached index, and keep none");
}

// The options of the views, declared in report/ViewCatalog.cpp: each name
// once, as a flag, a repeatable option or one taking a value; `help` says
// what takes it.
void addViewOptions(CLI::App* cmd, const std::vector<const views::OptionInfo*>& declared,
                    std::string (*help)(const views::OptionInfo&),
                    std::vector<ViewOptionSlot>& slots) {
    for (const views::OptionInfo* option : declared) {
        const std::string name = option->name;
        bool seen = false;
        for (const ViewOptionSlot& slot : slots)
            seen = seen || slot.name == name;
        if (seen) continue;
        const std::string description = help(*option);
        CLI::Option* added = nullptr;
        if (option->kind == views::ValueKind::Flag) {
            added = cmd->add_flag(name, description);
        } else {
            added = cmd->add_option(name, description)->type_name(views::valuePlaceholder(*option));
            if (option->kind == views::ValueKind::TextList)
                added->expected(CLI::detail::expected_max_vector_size);
        }
        slots.push_back({name, added});
    }
}

// Once parsed: the view options given, in the order of their declaration.
std::vector<views::GivenOption> givenViewOptions(const std::vector<ViewOptionSlot>& slots) {
    std::vector<views::GivenOption> given;
    for (const ViewOptionSlot& slot : slots) {
        if (slot.option->count() == 0) continue;
        if (slot.option->get_type_size() == 0) // a flag
            given.push_back({slot.name, ""});
        else
            for (const std::string& text : slot.option->results())
                given.push_back({slot.name, text});
    }
    return given;
}

// trace-stats: every view's options in its help, what takes each and
// accepts what.
std::string traceStatsOptionHelp(const views::OptionInfo& option) {
    return cliOptionHelp(option.name);
}

// `trace-stats --view NAME --help`: that view's help instead of the
// command's (CLI11 reads --view before it answers --help).
class TraceStatsHelp : public CLI::Formatter {
public:
    explicit TraceStatsHelp(const std::string& view) : view_(view) {}

    std::string make_help(const CLI::App* app, std::string name,
                          CLI::AppFormatMode mode) const override {
        if (mode == CLI::AppFormatMode::Normal)
            for (const CliView& view : cliViews())
                if (view_ == view.info->name)
                    return "Usage: " + name + " FILE --view " + view_ + " [OPTIONS]\n\n" +
                           cliViewOptionsHelp(view) +
                           "\nEvery view also takes --format text|csv|json, --limit N, "
                           "--plugin-compatible, --no-cache and --timings (" +
                           name + " --help).\n";
        return CLI::Formatter::make_help(app, std::move(name), mode);
    }

private:
    const std::string& view_; // TraceStatsOptions::view, parsed before --help is answered
};

void addTraceStats(CLI::App& app, TraceCommands& c) {
    TraceStatsOptions& trace = c.trace;
    auto* cmd = app.add_subcommand("trace-stats", "operator table of a Chrome trace file");
    cmd->formatter(std::make_shared<TraceStatsHelp>(trace.view));
    cmd->add_option("file", trace.file, "trace.json (Trainscope or torch.profiler)")->required();
    cmd->add_option("more", trace.more_files,
                    "the views of a rank folder: more per-rank trace files (or give their folder)");
    cmd->add_option("--format", trace.format, "text, csv or json");
    cmd->add_option("--limit", trace.limit, "rows to print (0 = all)");
    cmd->add_option("--view", trace.view, cliViewHelp());
    addViewOptions(cmd, views::cliOptions(), traceStatsOptionHelp, c.trace_view_options);
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
    addViewOptions(cmd, views::windowOptions(), views::helpLine, c.export_view_options);
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
    cmd->add_option("--param", q.params,
                    "NAME=VALUE: a whole number (or null) for the query's :NAME, as the GUI "
                    "binds its selection (:start_ns, :end_ns, :step, :rank, :event); "
                    "repeatable");
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
    commands.index_cmd = app.add_subcommand(
        "trace-index",
        "write each rank trace's summary beside it (<trace>.tsrank), where it was "
        "recorded: a folder of them opens in the Distributed view without its traces");
    commands.index_cmd->add_option("traces", commands.index.inputs, "trace files or folders")
        ->required();
    commands.index_cmd->add_flag(
        "--plugin-compatible", commands.index.plugin_compatible,
        "the TensorBoard plugin's rules (as trace-stats --plugin-compatible)");
}

std::optional<int> runTraceCommands(TraceCommands& commands, std::ostream& out, std::ostream& err) {
    if (*commands.presets_cmd) return presetsCommand(out, err);
    if (*commands.trace_cmd) {
        commands.trace.progress = stderrIsTerminal();
        commands.trace.view_options = givenViewOptions(commands.trace_view_options);
        return runTraceStats(commands.trace, out, err);
    }
    if (*commands.diff_cmd) return runTraceDiff(commands.diff, out, err);
    if (*commands.cache_cmd) return runTraceCache(commands.cache, out, err);
    if (*commands.index_cmd) {
        commands.index.progress = stderrIsTerminal();
        return runTraceIndex(commands.index, out, err);
    }
    if (*commands.export_cmd) {
        commands.export_trace.trace.view_options = givenViewOptions(commands.export_view_options);
        return runTraceExport(commands.export_trace, out, err);
    }
    if (*commands.query_cmd) return runTraceQuery(commands.query, out, err);
    if (*commands.memory_cmd) return runMemoryStats(commands.memory, out, err);
    if (*commands.memory_diff_cmd) return runMemoryDiff(commands.memory, out, err);
    return std::nullopt;
}

} // namespace ts::cli
