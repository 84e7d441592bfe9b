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
#include "inspect/TraceViewPrinters.h"
#include "inspect/TraceViews.h"
#include "report/OpTables.h"
#include "report/SnapshotTables.h"
#include "sources/SourceRegistry.h"

namespace ts {

namespace {

// --group-by and --scope, checked against their declarations already.
OpGrouping grouping(const std::string& text) {
    return text == "shapes" ? OpGrouping::NameAndShapes : OpGrouping::Name;
}

OpScope scope(const std::string& text) {
    if (text == "forward") return OpScope::Forward;
    if (text == "backward") return OpScope::Backward;
    return OpScope::All;
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

nlohmann::json jsonReport(const Trace& trace, const OpTable& table, const TraceStatsOptions& o,
                          const views::OptionValues& values) {
    nlohmann::json j = opTableToJson(table, o.limit);
    j["file"] = o.file;
    j["source"] = trace.source;
    j["events"] = trace.events.size();
    j["steps"] = trace.steps.size();
    j["notes"] = trace.notes;
    j["group_by"] = *values.text("--group-by");
    j["scope"] = *values.text("--scope");
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
void printView(const TraceStatsOptions& options, const views::OptionValues& values,
               std::ostream& out, std::ostream& err) {
    const CliView& view = cliView(options.view);
    if (readsRankFolder(*view.info, options)) {
        TraceViewRequest request{options, values, nullptr, out, err};
        return view.print(request);
    }
    checkOneTrace(options);
    // A view of one trace or of a folder's ranks, given one trace.
    if (view.info->input == views::Input::TraceOrRanks && values.whole("--span") != 1)
        throw std::invalid_argument("Option --span applies to the views of a rank folder only (" +
                                    views::quotedRankFolderNames() + ").");
    TraceInput input(options.file, inputOptions(options), err);
    TraceViewRequest request{options, values, &input, out, err};
    view.print(request);
    input.keepIndex();
}

// Without --view: the operator table.
void printOperatorTable(const TraceStatsOptions& options, const views::OptionValues& values,
                        std::ostream& out, std::ostream& err) {
    checkOneTrace(options);
    TraceInput input(options.file, inputOptions(options), err);
    TraceViewRequest request{options, values, &input, out, err};
    printers::operatorTable(request);
    input.keepIndex();
}

} // namespace

void printers::operatorTable(TraceViewRequest& request) {
    const TraceStatsOptions& options = request.options;
    const views::OptionValues& values = request.values;
    std::ostream& out = request.out;
    const Trace& trace = request.input->trace();
    OpTable table =
        computeOpStats(trace, grouping(*values.text("--group-by")), scope(*values.text("--scope")));
    sortOpTable(table, *values.text("--sort"));
    if (options.format == "csv")
        out << formatOpTableCsv(table, options.limit);
    else if (options.format == "json")
        out << jsonReport(trace, table, options, values).dump(2) << '\n';
    else
        printText(trace, table, options, out);
}

namespace {

// What `o` reads, as the source registry names it: the operator table and
// the memory timeline's peak without --view, else the view's input.
std::vector<views::Input> inputsOf(const TraceStatsOptions& o) {
    if (o.view.empty()) return {views::Input::Trace, views::Input::MemoryTimeline};
    return {cliView(o.view).info->input};
}

// export_memory_timeline's raw rows instead of a trace: the categories at
// their peak.
void printCategoryTimeline(const TraceStatsOptions& o, std::ostream& out) {
    const CategoryTimeline timeline = readCategoryTimeline(o.file);
    if (o.format == "json")
        out << categoryPeakJson(timeline).dump(2) << '\n';
    else if (o.format == "csv")
        out << table::toDataCsv(categoryPeakTable(timeline));
    else
        out << categoryPeakTable(timeline).title << ":\n"
            << table::toText(categoryPeakTable(timeline));
}

} // namespace

int runTraceStats(const TraceStatsOptions& options, std::ostream& out, std::ostream& err) {
    try {
        checkFormat(options.format);
        const views::OptionValues values = readViewOptions(options);
        // What the file is, by its content; a kind trace-stats does not read
        // is named with the command that does.
        const std::string what =
            options.view.empty() ? "trace-stats" : "trace-stats --view " + options.view;
        // Several files given one by one: each is a rank's trace.
        for (const std::string& more : options.more_files)
            sources::requireKind(sources::recognise(more), {views::Input::Trace}, what);
        const sources::SourceKind& kind = sources::requireKind(
            sources::recognise(options.file),
            options.more_files.empty() ? inputsOf(options) : std::vector{views::Input::Trace},
            what);
        if (kind.feedsInput(views::Input::MemoryTimeline)) {
            printCategoryTimeline(options, out);
            return exit_code::kOk;
        }
        if (options.view.empty())
            printOperatorTable(options, values, out, err);
        else
            printView(options, values, out, err);
        return exit_code::kOk;
    } catch (const std::exception& e) {
        err << "trace-stats: " << e.what() << '\n';
        return exit_code::kBadInput;
    }
}

} // namespace ts
