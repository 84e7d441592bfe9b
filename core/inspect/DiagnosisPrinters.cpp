// `trace-stats --view temporal` and `--view idle`: Holistic Trace Analysis'
// temporal and idle-time breakdowns of one trace (report/IdleTables.h).
#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "analysis/IdleTime.h"
#include "inspect/TraceViewPrinters.h"
#include "report/IdleTables.h"

namespace ts::printers {
namespace {

// --kernel-wait-us: HTA's consecutive_kernel_delay.
int64_t kernelWaitNs(const TraceStatsOptions& o) {
    if (o.kernel_wait_us.empty()) return IdleOptions{}.kernel_wait_ns;
    size_t used = 0;
    double us = -1;
    try {
        us = std::stod(o.kernel_wait_us, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != o.kernel_wait_us.size() || !std::isfinite(us) || us < 0 || us > 1e9)
        throw std::invalid_argument("Option --kernel-wait-us is '" + o.kernel_wait_us +
                                    "'; expected microseconds, 0 or more (HTA's default: 30).");
    return std::llround(us * 1000);
}

DeviceActivities activityOf(const Trace& trace, const TraceStatsOptions& o) {
    DeviceActivities activity = collectDeviceActivity(trace);
    if (activity.empty())
        throw std::invalid_argument(o.file +
                                    ": no kernels, copies or sets on a GPU stream for "
                                    "--view " +
                                    o.view +
                                    " (a torch.profiler trace recorded with "
                                    "ProfilerActivity.CUDA has them).");
    return activity;
}

void printNotes(const DeviceActivities& activity, std::ostream& out) {
    for (const std::string& note : activityNotes(activity))
        out << "note: " << note << '\n';
}

void printTables(const std::vector<table::TableSpec>& tables, const TraceStatsOptions& o,
                 std::ostream& out) {
    for (size_t i = 0; i < tables.size(); ++i) {
        const table::TableSpec shown = table::firstRows(tables[i], o.limit);
        if (o.format == "csv")
            out << (i ? "\n" : "") << table::toDataCsv(shown);
        else
            out << '\n' << shown.title << ":\n" << table::toText(shown);
    }
}

} // namespace

void temporal(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    const DeviceActivities activity = activityOf(request.input->trace(), o);
    const std::vector<TemporalBreakdown> ranks{temporalBreakdown(activity)};
    if (o.format == "json") {
        request.out << temporalJson(ranks).dump(2) << '\n';
        return;
    }
    if (o.format == "text") printNotes(activity, request.out);
    printTables({temporalTable(ranks)}, o, request.out);
}

void idle(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    IdleOptions options;
    options.kernel_wait_ns = kernelWaitNs(o);
    const Trace& trace = request.input->trace();
    const DeviceActivities activity = activityOf(trace, o);
    const std::vector<IdleBreakdown> ranks{idleBreakdown(trace, activity, options)};
    if (o.format == "json") {
        request.out << idleJson(ranks).dump(2) << '\n';
        return;
    }
    if (o.format == "text") {
        printNotes(activity, request.out);
        request.out << "kernel wait: gaps under " << double(options.kernel_wait_ns) / 1000
                    << " us before work launched in time (--kernel-wait-us)\n";
    }
    printTables({idleTable(ranks), idleIntervalTable(ranks)}, o, request.out);
}

} // namespace ts::printers
