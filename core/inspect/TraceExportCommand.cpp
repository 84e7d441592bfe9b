#include "inspect/TraceExportCommand.h"

#include "analysis/CriticalPath.h"
#include "analysis/LaunchIndex.h"
#include "inspect/ExitCodes.h"
#include "inspect/Megabytes.h"
#include "inspect/TraceInput.h"
#include "inspect/TraceViewPrinters.h"
#include "query/SqliteExport.h"
#include "report/ViewCatalog.h"
#include "sources/SourceRegistry.h"
#include "trace/ChromeTraceWriter.h"

namespace ts {
namespace {

// The trace with a "critical path" row: the path's stretches follow each
// other in time, so they lie side by side on one row.
Trace markedTrace(const Trace& trace, const CriticalPathReport& report) {
    Trace marked = trace;
    const int32_t lane =
        marked.laneFor(-46, false, "critical path of " + report.graph.window.label);
    for (const CpSegment& s : report.segments) {
        TraceEvent e;
        const std::string name =
            s.event >= 0 ? trace.nameOf(trace.events[size_t(s.event)]) : toString(s.type);
        e.name = marked.internName(name);
        e.kind = EventKind::Annotation;
        e.lane = lane;
        e.start_ns = s.start;
        e.dur_ns = s.ns;
        e.args = marked.internString(std::string("[\"") + toString(s.bound) + "\", \"" +
                                     toString(s.type) + "\"]");
        KinetoExtras extras;
        extras.category = KinetoCategory::UserAnnotation;
        marked.events.push_back(e, extras);
    }
    marked.notes.push_back("critical path of " + report.graph.window.label + ": " +
                           std::to_string(double(report.path.length_ns) / 1000) + " us in " +
                           std::to_string(double(report.step_ns) / 1000) + " us");
    marked.finalize();
    return marked;
}

void exportCriticalPath(const TraceExportOptions& options, const CpWindowChoice& choice,
                        const Trace& trace, std::ostream& out) {
    std::string error;
    const std::optional<CpWindow> window = chooseWindow(trace, choice, error);
    if (!window) throw std::invalid_argument(options.trace.file + ": " + error + ".");
    const LaunchIndex launches = LaunchIndex::build(trace);
    const CriticalPathReport report = analyseCriticalPath(trace, launches, *window);
    writeChromeTraceFile(markedTrace(trace, report), options.critical_path_out);
    out << "wrote " << options.critical_path_out << ": the critical path of " << window->label
        << " (" << double(report.path.length_ns) / 1000 << " us, " << report.segments.size()
        << " stretches) on the row 'critical path of " << window->label << "'\n";
}

void exportDatabase(const std::string& path, const Trace& trace, std::ostream& out) {
    const SqliteExportSummary summary = exportSqlite(trace, path);
    out << "wrote " << path << " (" << wholeMegabytes(uint64_t(summary.bytes)) << " MB):";
    for (const auto& [table, rows] : summary.rows)
        out << ' ' << table << ' ' << rows << ',';
    out << " rows; open it with sqlite3 (docs/sql.md)\n";
}

} // namespace

int runTraceExport(const TraceExportOptions& options, std::ostream& out, std::ostream& err) {
    try {
        if (options.critical_path_out.empty() && options.sqlite_out.empty())
            throw std::invalid_argument(
                "Say what to export: --sqlite OUT.db or --critical-path OUT.json.");
        // The window, as trace-stats --view critical-path takes it.
        const CpWindowChoice window = printers::criticalPathWindow(views::OptionValues::read(
            options.trace.view_options, views::windowOptions(), views::cliTakersOf));
        sources::requireKind(sources::recognise(options.trace.file), {views::Input::Trace},
                             "trace-export");
        TraceInput::Options input_options;
        input_options.cache = options.trace.cache;
        TraceInput input(options.trace.file, input_options, err);
        const Trace& trace = input.trace();
        if (!options.sqlite_out.empty()) exportDatabase(options.sqlite_out, trace, out);
        if (!options.critical_path_out.empty()) exportCriticalPath(options, window, trace, out);
        return exit_code::kOk;
    } catch (const std::exception& e) {
        err << "trace-export: " << e.what() << '\n';
        return exit_code::kBadInput;
    }
}

} // namespace ts
