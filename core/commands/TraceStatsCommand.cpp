#include "commands/TraceStatsCommand.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "analysis/GpuTraceAnalysis.h"
#include "analysis/OpStats.h"
#include "analysis/OpTableFormat.h"
#include "analysis/StepBreakdown.h"
#include "commands/Commands.h"
#include "report/GpuTraceReport.h"
#include "trace/ChromeTraceReader.h"

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

DeviceOpGrouping parseDeviceGrouping(const std::string& text) {
    if (text == "name") return DeviceOpGrouping::Name;
    if (text == "shapes") return DeviceOpGrouping::NameAndShapes;
    if (text == "stack") return DeviceOpGrouping::NameAndStack;
    if (text == "shapes-stack") return DeviceOpGrouping::NameShapesAndStack;
    throw std::invalid_argument("Option --group-by is '" + text +
                                "'; expected 'name', 'shapes', 'stack' or 'shapes-stack'.");
}

// The GPU views (--view): Overview, Operators, Kernels.
void printGpuView(const Trace& trace, const TraceStatsOptions& o, std::ostream& out) {
    if (o.view != "overview" && o.view != "operators" && o.view != "kernels" &&
        o.view != "kernels-by-op")
        throw std::invalid_argument("Option --view is '" + o.view +
                                    "'; expected 'overview', 'operators', 'kernels' or "
                                    "'kernels-by-op'.");
    GpuAnalysisOptions options;
    options.plugin_compatible = o.plugin_compatible;
    const GpuTraceAnalysis a = analyzeGpuTrace(trace, options);
    if (a.empty())
        throw std::invalid_argument(o.file + ": no torch.profiler (Kineto) events for --view " +
                                    o.view + " (kernels, runtime calls, cpu_op events).");
    const bool csv = o.format == "csv", json = o.format == "json";
    if (o.view == "overview") {
        if (json)
            out << gpuOverviewJson(a).dump(2) << '\n';
        else
            out << (csv ? gpuOverviewCsv(a) : gpuOverviewText(a));
    } else if (o.view == "operators") {
        const DeviceOpTable table = a.operators(trace, parseDeviceGrouping(o.group_by));
        if (json)
            out << deviceOpsJson(table, o.limit).dump(2) << '\n';
        else
            out << (csv ? deviceOpsCsv(table, o.limit) : deviceOpsText(table, o.limit));
    } else {
        const bool by_op = o.view == "kernels-by-op";
        if (json)
            out << kernelsJson(a.kernels, by_op, o.limit).dump(2) << '\n';
        else
            out << (csv ? kernelsCsv(a.kernels, by_op, o.limit)
                        : kernelsText(a.kernels, by_op, o.limit));
    }
}

} // namespace

int runTraceStats(const TraceStatsOptions& options, std::ostream& out, std::ostream& err) {
    try {
        checkFormat(options.format);
        if (!options.view.empty()) {
            printGpuView(readChromeTraceFile(options.file), options, out);
            return exit_code::kOk;
        }
        const OpGrouping grouping = parseGrouping(options.group_by);
        const OpScope scope = parseScope(options.scope);
        const Trace trace = readChromeTraceFile(options.file);
        OpTable table = computeOpStats(trace, grouping, scope);
        sortOpTable(table, options.sort);
        if (options.format == "csv")
            out << formatOpTableCsv(table, options.limit);
        else if (options.format == "json")
            out << jsonReport(trace, table, options).dump(2) << '\n';
        else
            printText(trace, table, options, out);
        return exit_code::kOk;
    } catch (const std::exception& e) {
        err << "trace-stats: " << e.what() << '\n';
        return exit_code::kBadInput;
    }
}

} // namespace ts
