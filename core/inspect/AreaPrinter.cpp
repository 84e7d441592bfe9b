// `trace-stats --view area`: the timeline's area selection on the CLI, the
// same tables (report/AreaTables.h) for a time range on every lane.
#include <nlohmann/json.hpp>

#include "analysis/AreaSummary.h"
#include "analysis/CriticalPath.h"
#include "inspect/TraceViewPrinters.h"
#include "report/AreaTables.h"

namespace ts::printers {
namespace {

TraceArea areaOf(const Trace& trace, const TraceViewRequest& request) {
    const views::OptionValues& values = request.values;
    const std::optional<int64_t> start = values.nanos("--start-us"), end = values.nanos("--end-us");
    const bool range = start || end;
    const bool window =
        values.given("--step") || values.given("--annotation") || values.given("--instance");
    if (range == window)
        throw std::invalid_argument("--view area needs a time range: --start-us and --end-us, or "
                                    "--step N, or --annotation TEXT [--instance K].");
    if (range) {
        if (!start || !end)
            throw std::invalid_argument("--view area needs both --start-us and --end-us.");
        if (*end <= *start)
            throw std::invalid_argument("Option --end-us (" + values.givenText("--end-us") +
                                        ") must be after --start-us (" +
                                        values.givenText("--start-us") + ").");
        return {*start, *end, {}};
    }
    std::string error;
    const std::optional<CpWindow> w = chooseWindow(trace, criticalPathWindow(values), error);
    if (!w) throw std::invalid_argument(request.options.file + ": " + error + ".");
    return {w->start, w->end, {}};
}

} // namespace

void area(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    const Trace& trace = request.input->trace();
    const TraceArea a = areaOf(trace, request);
    const AreaRoles roles = computeAreaRoles(trace);
    const AreaSummary s = summarizeArea(trace, a, &roles);
    const std::vector<table::TableSpec> tables = {areaCategoryTable(s), areaNameTable(trace, s),
                                                  areaLaneTable(trace, s), areaMemoryTable(s)};
    if (o.format == "json") {
        nlohmann::json j{{"start_us", double(a.start_ns) / 1e3},
                         {"end_us", double(a.end_ns) / 1e3},
                         {"events", s.events},
                         {"gpu_busy", s.gpu_busy}};
        for (const table::TableSpec& t : tables)
            j[t.title] = table::rowsJson(table::firstRows(t, o.limit));
        request.out << j.dump(2) << '\n';
        return;
    }
    if (o.format == "text") request.out << areaHeadline(trace, s) << '\n';
    printTables(tables, o, request.out);
}

} // namespace ts::printers
