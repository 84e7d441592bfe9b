#include "inspect/TraceViewPrinters.h"

#include <cmath>
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
#include "analysis/TimelineTracks.h"
#include "report/DistributedReport.h"
#include "report/GpuTraceReport.h"
#include "report/MemoryReport.h"
#include "report/ModuleReport.h"
#include "trace/RankFolder.h"

namespace ts::printers {

int64_t wholeOption(const std::string& text, const char* option, int64_t min, int64_t max,
                    const std::string& expected) {
    size_t used = 0;
    long long n = -1;
    try {
        n = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || n < min || n > max)
        throw std::invalid_argument(std::string("Option ") + option + " is '" + text +
                                    "'; expected " + expected + ".");
    return n;
}

int64_t microsOption(const std::string& text, const char* option, double min_us, double max_us,
                     const std::string& expected) {
    size_t used = 0;
    double us = 0;
    try {
        us = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || !std::isfinite(us) || us < min_us || us > max_us)
        throw std::invalid_argument(std::string("Option ") + option + " is '" + text +
                                    "'; expected " + expected + ".");
    return static_cast<int64_t>(std::llround(us * 1000));
}

namespace {

DeviceOpGrouping parseDeviceGrouping(const std::string& text) {
    if (text == "name") return DeviceOpGrouping::Name;
    if (text == "shapes") return DeviceOpGrouping::NameAndShapes;
    if (text == "stack") return DeviceOpGrouping::NameAndStack;
    if (text == "shapes-stack") return DeviceOpGrouping::NameShapesAndStack;
    throw std::invalid_argument("Option --group-by is '" + text +
                                "'; expected 'name', 'shapes', 'stack' or 'shapes-stack'.");
}

// Microseconds as ns; "" leaves `ns` as it is (an open end).
void parseMicros(const std::string& text, const char* option, int64_t& ns) {
    if (!text.empty())
        ns = microsOption(text, option, -9e12, 9e12, "microseconds from the start of the trace");
}

MemoryTimeRange parseMemoryRange(const TraceStatsOptions& o) {
    MemoryTimeRange range;
    parseMicros(o.start_us, "--start-us", range.start_ns);
    parseMicros(o.end_us, "--end-us", range.end_ns);
    if (range.end_ns <= range.start_ns)
        throw std::invalid_argument("Option --end-us (" + o.end_us +
                                    ") must be after --start-us (" + o.start_us + ").");
    return range;
}

// --view memory: the curve's peak, the allocations and the per-operator
// statistics, per device.
void printMemoryView(const Trace& trace, const TraceStatsOptions& o, std::ostream& out) {
    const MemoryTimeRange range = parseMemoryRange(o);
    GpuAnalysisOptions options;
    options.plugin_compatible = o.plugin_compatible;
    MemoryView view = computeMemoryView(trace, range, options);
    if (view.empty())
        throw std::invalid_argument(o.file + ": no memory records for --view memory "
                                             "(torch.profiler's profile_memory=True, or "
                                             "Trainscope's memory samples).");
    if (!o.device.empty()) {
        std::string names;
        for (const DeviceMemoryView& d : view.devices)
            names += (names.empty() ? "'" : ", '") + d.name + "'";
        std::vector<DeviceMemoryView> kept;
        for (DeviceMemoryView& d : view.devices)
            if (d.name == o.device) kept.push_back(std::move(d));
        if (kept.empty())
            throw std::invalid_argument("Option --device is '" + o.device + "'; the trace has " +
                                        names + ".");
        view.devices = std::move(kept);
    }
    if (o.format == "json")
        out << memoryJson(view, o.limit).dump(2) << '\n';
    else
        out << (o.format == "csv" ? memoryCsv(view, o.limit) : memoryText(view, o.limit));
}

void checkNoMemoryOptions(const TraceStatsOptions& o) {
    if (!o.device.empty() || !o.start_us.empty() || !o.end_us.empty())
        throw std::invalid_argument("Options --device, --start-us and --end-us apply to "
                                    "--view memory only.");
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
void printDistributedView(const TraceStatsOptions& o, std::ostream& out) {
    checkNoMemoryOptions(o);
    int count = 0;
    const RankSpan span = chosenSpan(o, count);
    GpuAnalysisOptions options;
    options.plugin_compatible = o.plugin_compatible;
    DistributedView view = computeDistributedView(readRankSpan(span), options);
    view.span = o.span;
    view.span_count = count;
    if (o.format == "json")
        out << distributedJson(view, o.limit).dump(2) << '\n';
    else
        out << (o.format == "csv" ? distributedCsv(view, o.limit) : distributedText(view, o.limit));
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
void printGpuView(TraceInput& input, const TraceStatsOptions& o, std::ostream& out) {
    const Trace& trace = input.trace();
    checkNoMemoryOptions(o);
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

RankSpan chosenSpan(const TraceStatsOptions& o, int& count) {
    std::vector<std::filesystem::path> inputs{o.file};
    inputs.insert(inputs.end(), o.more_files.begin(), o.more_files.end());
    const std::vector<RankSpan> spans = findRankSpans(inputs);
    count = static_cast<int>(spans.size());
    if (o.span < 1 || o.span > count)
        throw std::invalid_argument("Option --span is " + std::to_string(o.span) + "; " + o.file +
                                    " has " + std::to_string(count) + " span(s), numbered 1 to " +
                                    std::to_string(count) + ".");
    return spans[static_cast<size_t>(o.span - 1)];
}

void gpuView(TraceViewRequest& request) {
    printGpuView(*request.input, request.options, request.out);
}

void memory(TraceViewRequest& request) {
    printMemoryView(request.input->trace(), request.options, request.out);
}

void modules(TraceViewRequest& request) {
    checkNoMemoryOptions(request.options);
    printModuleView(request.input->trace(), request.options, request.out);
}

void distributed(TraceViewRequest& request) {
    printDistributedView(request.options, request.out);
}

} // namespace ts::printers
