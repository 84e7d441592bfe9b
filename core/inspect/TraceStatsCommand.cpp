#include "inspect/TraceStatsCommand.h"

#include <filesystem>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "analysis/MemoryCategories.h"
#include "analysis/OpStats.h"
#include "analysis/OpTableFormat.h"
#include "analysis/StepBreakdown.h"
#include "inspect/ExitCodes.h"
#include "inspect/TraceInput.h"
#include "inspect/TraceViews.h"
#include "report/OpTables.h"
#include "report/SnapshotTables.h"

namespace ts {

namespace {

OpGrouping parseGrouping(const std::string& text) {
    if (text == "name") return OpGrouping::Name;
    if (text == "shapes") return OpGrouping::NameAndShapes;
    throw std::invalid_argument("Option --group-by is '" + text +
                                "'; expected 'name' or 'shapes'.");
}

OpScope parseScope(const std::string& text) {
    if (text == "all") return OpScope::All;
    if (text == "forward") return OpScope::Forward;
    if (text == "backward") return OpScope::Backward;
    throw std::invalid_argument("Option --scope is '" + text +
                                "'; expected 'all', 'forward' or 'backward'.");
}

TraceInput::Options inputOptions(const TraceStatsOptions& o) {
    TraceInput::Options options;
    options.cache = o.cache;
    options.progress_line = o.progress;
    options.timings = o.timings;
    return options;
}

void checkFormat(const std::string& text) {
    if (text != "text" && text != "csv" && text != "json")
        throw std::invalid_argument("Option --format is '" + text +
                                    "'; expected 'text', 'csv' or 'json'.");
}

void printText(const Trace& trace, const OpTable& table, const TraceStatsOptions& o,
               std::ostream& out) {
    out << o.file << ": " << trace.source << ", " << trace.events.size() << " events, "
        << trace.lanes.size() << " threads, " << trace.steps.size() << " steps\n";
    for (const std::string& note : trace.notes)
        out << "note: " << note << '\n';
    out << formatOpTableText(table, o.limit);
}

nlohmann::json jsonReport(const Trace& trace, const OpTable& table, const TraceStatsOptions& o) {
    nlohmann::json j = opTableToJson(table, o.limit);
    j["file"] = o.file;
    j["source"] = trace.source;
    j["events"] = trace.events.size();
    j["steps"] = trace.steps.size();
    j["notes"] = trace.notes;
    j["group_by"] = o.group_by;
    j["scope"] = o.scope;
    j["breakdown"] = toJson(computeStepBreakdown(trace));
    return j;
}

// Every view but those of a rank folder reads one trace, of one span.
void checkOneTrace(const TraceStatsOptions& options) {
    if (!options.more_files.empty())
        throw std::invalid_argument("Several trace files are read by the views of a rank "
                                    "folder only (" +
                                    views::quotedRankFolderNames() +
                                    "); the other views take one.");
    if (options.span != 1)
        throw std::invalid_argument("Option --span applies to the views of a rank folder only (" +
                                    views::quotedRankFolderNames() + ").");
}

// A view that reads a folder of per-rank traces is given it when the input
// is a folder or several files.
bool readsRankFolder(const views::ViewInfo& view, const TraceStatsOptions& options) {
    if (view.input == views::Input::RankFolder) return true;
    if (view.input != views::Input::TraceOrRanks) return false;
    std::error_code ignored;
    return !options.more_files.empty() || std::filesystem::is_directory(options.file, ignored);
}

// --view: the view's printer, given the trace unless it reads a rank folder.
void printView(const TraceStatsOptions& options, std::ostream& out, std::ostream& err) {
    const CliView& view = cliView(options.view);
    if (readsRankFolder(*view.info, options)) {
        TraceViewRequest request{options, nullptr, out};
        return view.print(request);
    }
    checkOneTrace(options);
    TraceInput input(options.file, inputOptions(options), err);
    TraceViewRequest request{options, &input, out};
    view.print(request);
    input.keepIndex();
}

} // namespace

namespace {

// export_memory_timeline's raw rows instead of a trace: the categories at
// their peak.
bool printCategoryTimeline(const TraceStatsOptions& o, std::ostream& out) {
    if (!o.view.empty() || !isCategoryTimelineFile(o.file)) return false;
    const CategoryTimeline timeline = readCategoryTimeline(o.file);
    if (o.format == "json")
        out << categoryPeakJson(timeline).dump(2) << '\n';
    else if (o.format == "csv")
        out << table::toDataCsv(categoryPeakTable(timeline));
    else
        out << categoryPeakTable(timeline).title << ":\n"
            << table::toText(categoryPeakTable(timeline));
    return true;
}

} // namespace

int runTraceStats(const TraceStatsOptions& options, std::ostream& out, std::ostream& err) {
    try {
        checkFormat(options.format);
        if (printCategoryTimeline(options, out)) return exit_code::kOk;
        if (!options.kernel_wait_us.empty() && options.view != "idle")
            throw std::invalid_argument("Option --kernel-wait-us applies to --view idle only.");
        if ((!options.runtime_cutoff_us.empty() || !options.launch_delay_cutoff_us.empty()) &&
            options.view != "launches")
            throw std::invalid_argument("Options --runtime-cutoff-us and --launch-delay-cutoff-us "
                                        "apply to --view launches only.");
        if (!options.max_queue_length.empty() && options.view != "queue")
            throw std::invalid_argument("Option --max-queue-length applies to --view queue only.");
        if (!options.annotation_side.empty() && options.view != "annotations")
            throw std::invalid_argument("Option --annotations applies to --view annotations only.");
        if ((!options.operator_text.empty() || !options.min_pattern_len.empty()) &&
            options.view != "kernel-sequences")
            throw std::invalid_argument("Options --operator and --min-pattern-len apply to --view "
                                        "kernel-sequences only.");
        const bool window_view = options.view == "critical-path" || options.view == "area";
        if ((!options.step.empty() || !options.annotation_name.empty() ||
             !options.instance.empty()) &&
            !window_view)
            throw std::invalid_argument("Options --step, --annotation and --instance apply to "
                                        "--view critical-path and --view area only.");
        if ((!options.rank.empty() || !options.what_if.empty()) && options.view != "critical-path")
            throw std::invalid_argument("Options --rank and --what-if apply to --view "
                                        "critical-path only.");
        if (!options.view.empty()) {
            printView(options, out, err);
            return exit_code::kOk;
        }
        checkOneTrace(options);
        if (!options.device.empty() || !options.start_us.empty() || !options.end_us.empty())
            throw std::invalid_argument("Options --device, --start-us and --end-us apply to "
                                        "--view memory only.");
        const OpGrouping grouping = parseGrouping(options.group_by);
        const OpScope scope = parseScope(options.scope);
        TraceInput input(options.file, inputOptions(options), err);
        const Trace& trace = input.trace();
        OpTable table = computeOpStats(trace, grouping, scope);
        sortOpTable(table, options.sort);
        if (options.format == "csv")
            out << formatOpTableCsv(table, options.limit);
        else if (options.format == "json")
            out << jsonReport(trace, table, options).dump(2) << '\n';
        else
            printText(trace, table, options, out);
        input.keepIndex();
        return exit_code::kOk;
    } catch (const std::exception& e) {
        err << "trace-stats: " << e.what() << '\n';
        return exit_code::kBadInput;
    }
}

} // namespace ts
