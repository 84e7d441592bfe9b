#include "inspect/TraceViewPrinters.h"

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/DistributedView.h"
#include "analysis/GpuTraceAnalysis.h"
#include "analysis/MemoryView.h"
#include "analysis/ModuleView.h"
#include "analysis/OverviewCache.h"
#include "analysis/RankSummaries.h"
#include "analysis/TimelineTracks.h"
#include "inspect/ReadProgressLine.h"
#include "report/DistributedReport.h"
#include "report/GpuTraceReport.h"
#include "report/MemoryReport.h"
#include "report/ModuleReport.h"
#include "trace/OptimizerSteps.h"
#include "trace/RankFolder.h"

namespace ts::printers {

namespace {

// --group-by, checked against its declaration already.
DeviceOpGrouping deviceGrouping(const std::string& text) {
    if (text == "shapes") return DeviceOpGrouping::NameAndShapes;
    if (text == "stack") return DeviceOpGrouping::NameAndStack;
    if (text == "shapes-stack") return DeviceOpGrouping::NameShapesAndStack;
    return DeviceOpGrouping::Name;
}

MemoryTimeRange memoryRange(const views::OptionValues& values) {
    MemoryTimeRange range;
    range.start_ns = values.nanos("--start-us").value_or(range.start_ns);
    range.end_ns = values.nanos("--end-us").value_or(range.end_ns);
    if (range.end_ns <= range.start_ns)
        throw std::invalid_argument("Option --end-us (" + values.givenText("--end-us") +
                                    ") must be after --start-us (" +
                                    values.givenText("--start-us") + ").");
    return range;
}

// --view memory: the curve's peak, the allocations and the per-operator
// statistics, per device.
void printMemoryView(const Trace& trace, const TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    std::ostream& out = request.out;
    const MemoryTimeRange range = memoryRange(request.values);
    GpuAnalysisOptions options;
    options.plugin_compatible = o.plugin_compatible;
    MemoryView view = computeMemoryView(trace, range, options);
    if (view.empty())
        throw std::invalid_argument(o.file + ": no memory records for --view memory "
                                             "(torch.profiler's profile_memory=True, or "
                                             "Trainscope's memory samples).");
    if (const std::optional<std::string> device = request.values.text("--device")) {
        std::string names;
        for (const DeviceMemoryView& d : view.devices)
            names += (names.empty() ? "'" : ", '") + d.name + "'";
        std::vector<DeviceMemoryView> kept;
        for (DeviceMemoryView& d : view.devices)
            if (d.name == *device) kept.push_back(std::move(d));
        if (kept.empty())
            throw std::invalid_argument("Option --device is '" + *device + "'; the trace has " +
                                        names + ".");
        view.devices = std::move(kept);
    }
    if (o.format == "json")
        out << memoryJson(view, o.limit).dump(2) << '\n';
    else
        out << (o.format == "csv" ? memoryCsv(view, o.limit) : memoryText(view, o.limit));
}

// --view modules: the nn.Module tree with host and device times.
void printModuleView(const Trace& trace, const TraceStatsOptions& o, std::ostream& out) {
    GpuAnalysisOptions options;
    options.plugin_compatible = o.plugin_compatible;
    const ModuleView view = computeModuleView(trace, options);
    if (view.empty())
        throw std::invalid_argument(
            o.file + ": no module information for --view modules: " + view.reason + ".");
    if (o.format == "json")
        out << modulesJson(view).dump(2) << '\n';
    else
        out << (o.format == "csv" ? modulesCsv(view) : modulesText(view));
}
// --view distributed: a folder of per-rank traces (or several files), one
// span of it.
void printDistributedView(const TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    std::ostream& out = request.out;
    int count = 0;
    const RankSpan span = chosenSpan(request, count);
    RankSelection rows;
    if (const std::optional<std::string> ranks = request.values.text("--ranks"))
        rows = RankSelection::parse(*ranks);
    RankSummarySettings settings;
    settings.options.plugin_compatible = o.plugin_compatible;
    settings.cache.enabled = o.cache;
    SpanSummaries read =
        summarizeSpan(span, settings, rankFilesProgressLine(o.file, request.err, o.progress));
    DistributedView view = computeDistributedView(std::move(read.ranks), settings.options);
    view.left_out.insert(view.left_out.begin(), read.unreadable.begin(), read.unreadable.end());
    view.notes.insert(view.notes.end(), read.notes.begin(), read.notes.end());
    view.span = int(*request.values.whole("--span"));
    view.span_count = count;
    if (o.format == "json")
        out << distributedJson(view, o.limit, rows).dump(2) << '\n';
    else
        out << (o.format == "csv" ? distributedCsv(view, o.limit, rows)
                                  : distributedText(view, o.limit, rows));
}

constexpr const char* kOwnDeviceTimeNote =
    "note: Trainscope's profiler timed this run's operators on the GPU but records no kernels: "
    "this view counts no GPU time (the overview shows the GPU's work as CPU Exec). The operator "
    "table (trace-stats without --view) has each operator's CUDA time; a torch.profiler trace "
    "(ProfilerActivity.CUDA) has the kernels.\n";

// Keeps the Overview of a large trace for its next open (OverviewCache.h),
// with the launches and step spans the GUI's timeline takes from it.
void keepOverview(const GpuTraceAnalysis& a, const Trace& trace, const TraceOpening& opening,
                  const GpuAnalysisOptions& options) {
    if (traceCacheCompanion(opening, kOverviewCacheExtension).empty()) return; // not cached
    TimelineTracks launches;
    addTimelineLaunches(launches, trace, &a.events, &a.links);
    keepOverviewSnapshot(a, launches.launches, launches.steps, trace, opening, options);
}

// The GPU views: Overview, Operators, Kernels (by name or operator). The
// Overview of a large trace opened before comes from its Overview cache.
void printGpuView(TraceInput& input, const TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    std::ostream& out = request.out;
    const Trace& trace = input.trace();
    GpuAnalysisOptions options;
    options.plugin_compatible = o.plugin_compatible;
    std::optional<OverviewSnapshot> cached;
    if (o.view == "overview") cached = loadOverviewSnapshot(trace, input.opening(), options);
    input.setOverviewCached(cached.has_value());
    // The Overview needs no operator tree on a trace without kernels.
    const GpuTraceAnalysis a =
        cached ? std::move(cached->summary)
               : analyzeGpuTrace(trace, options,
                                 o.view == "overview" ? GpuAnalysisScope::Overview
                                                      : GpuAnalysisScope::All);
    if (!cached) keepOverview(a, trace, input.opening(), options);
    if (a.empty())
        throw std::invalid_argument(o.file + ": no torch.profiler (Kineto) events for --view " +
                                    o.view + " (kernels, runtime calls, cpu_op events).");
    const bool csv = o.format == "csv", json = o.format == "json";
    if (!csv && !json && a.device_time_without_kernels) out << kOwnDeviceTimeNote;
    if (!csv && !json && o.view == "overview" && !trace.steps_from.empty())
        out << "note: " << derivedStepsText(trace) << '\n';
    if (o.view == "overview") {
        if (json)
            out << gpuOverviewJson(a).dump(2) << '\n';
        else
            out << (csv ? gpuOverviewCsv(a) : gpuOverviewText(a));
    } else if (o.view == "operators") {
        const DeviceOpTable table =
            a.operators(trace, deviceGrouping(*request.values.text("--group-by")));
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

RankSpan chosenSpan(const TraceStatsOptions& o, int& count, int64_t span) {
    std::vector<std::filesystem::path> inputs{o.file};
    inputs.insert(inputs.end(), o.more_files.begin(), o.more_files.end());
    const std::vector<RankSpan> spans = findRankSpans(inputs);
    count = static_cast<int>(spans.size());
    if (span < 1 || span > count)
        throw std::invalid_argument("Option --span is " + std::to_string(span) + "; " + o.file +
                                    " has " + std::to_string(count) + " span(s), numbered 1 to " +
                                    std::to_string(count) + ".");
    return spans[static_cast<size_t>(span - 1)];
}

RankSpan chosenSpan(const TraceViewRequest& request, int& count) {
    return chosenSpan(request.options, count, *request.values.whole("--span"));
}

void gpuView(TraceViewRequest& request) {
    printGpuView(*request.input, request);
}

void memory(TraceViewRequest& request) {
    printMemoryView(request.input->trace(), request);
}

void modules(TraceViewRequest& request) {
    printModuleView(request.input->trace(), request.options, request.out);
}

void distributed(TraceViewRequest& request) {
    printDistributedView(request);
}

} // namespace ts::printers
