// `trace-stats --view temporal` and `--view idle`: Holistic Trace Analysis'
// temporal and idle-time breakdowns of one trace (report/IdleTables.h).
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "analysis/IdleTime.h"
#include "analysis/LaunchStats.h"
#include "inspect/TraceViewPrinters.h"
#include "report/IdleTables.h"
#include "report/KernelTypeTables.h"
#include "report/LaunchTables.h"

namespace ts::printers {
namespace {

// A threshold in microseconds, as ns: `fallback` when not given.
int64_t thresholdNs(const std::string& text, const char* option, int64_t fallback,
                    const char* hta_default) {
    if (text.empty()) return fallback;
    return microsOption(text, option, 0, 1e9,
                        std::string("microseconds, 0 or more (HTA's default: ") + hta_default +
                            ")");
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
    options.kernel_wait_ns =
        thresholdNs(o.kernel_wait_us, "--kernel-wait-us", options.kernel_wait_ns, "30");
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

void launches(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    LaunchStatOptions options;
    options.runtime_cutoff_ns =
        thresholdNs(o.runtime_cutoff_us, "--runtime-cutoff-us", options.runtime_cutoff_ns, "50");
    options.launch_delay_cutoff_ns =
        thresholdNs(o.launch_delay_cutoff_us, "--launch-delay-cutoff-us",
                    options.launch_delay_cutoff_ns, "100");
    const Trace& trace = request.input->trace();
    const DeviceActivities activity = activityOf(trace, o);
    const std::vector<LaunchStats> ranks{launchStats(trace, activity, options)};
    if (o.format == "json") {
        request.out << launchesJson(trace, ranks, o.limit).dump(2) << '\n';
        return;
    }
    if (o.format == "text") printNotes(activity, request.out);
    // Text lists the 20 longest-delayed outliers unless --limit says otherwise.
    const size_t listed = o.format == "text" && o.limit == 0 ? 20 : o.limit;
    printTables({launchSummaryTable(ranks), launchOutlierTable(ranks),
                 outlierLaunchTable(trace, ranks, listed)},
                o, request.out);
}

void kernelTypes(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    const Trace& trace = request.input->trace();
    const DeviceActivities activity = activityOf(trace, o);
    const std::vector<KernelTypeBreakdown> ranks{kernelTypeBreakdown(trace, activity)};
    if (o.format == "json") {
        request.out << kernelTypesJson(ranks).dump(2) << '\n';
        return;
    }
    if (o.format == "text") printNotes(activity, request.out);
    printTables({kernelTypeTable(ranks), kernelsByTypeTable(ranks)}, o, request.out);
}

} // namespace ts::printers
