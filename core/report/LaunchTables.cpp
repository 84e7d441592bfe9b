#include "report/LaunchTables.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "report/DiagnosisCells.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, ColumnUnit, …
using diagnosis::micros;
using diagnosis::rankColumn;
using diagnosis::usColumn;

struct Measure {
    const char* key;
    const char* what;
    const LaunchMeasure LaunchStats::*field;
};
constexpr Measure kMeasures[] = {
    {"cpu_duration", "the runtime call, on the CPU", &LaunchStats::cpu},
    {"gpu_duration", "the kernel, copy or set, on the GPU", &LaunchStats::gpu},
    {"launch_delay", "from the call's end to the work's start", &LaunchStats::delay},
};

std::string ruleOf(LaunchOutlier outlier, const LaunchStatOptions& o) {
    const std::string runtime = fixed(double(o.runtime_cutoff_ns) / 1000, 0) + " us";
    switch (outlier) {
    case LaunchOutlier::ShortKernel:
        return "GPU duration below its call's CPU duration, for calls up to " + runtime;
    case LaunchOutlier::SlowRuntime:
        return "runtime call longer than " + runtime;
    case LaunchOutlier::LongDelay:
        return "launch delay over " + fixed(double(o.launch_delay_cutoff_ns) / 1000, 0) + " us";
    }
    return "";
}

nlohmann::json measureJson(const LaunchMeasure& m) {
    return {{"total", double(m.total) / 1000},
            {"mean", m.mean / 1000},
            {"p50", m.p50 / 1000},
            {"p95", m.p95 / 1000},
            {"max", m.max / 1000}};
}

// The outlying launches of one rank, the longest delays first, `limit` at most.
std::vector<const KernelLaunch*> outliersOf(const LaunchStats& s, size_t limit) {
    std::vector<const KernelLaunch*> out;
    for (const KernelLaunch& l : s.launches)
        for (size_t k = 0; k < kLaunchOutlierCount; ++k)
            if (isOutlier(l, LaunchOutlier(k), s.options)) {
                out.push_back(&l);
                break;
            }
    std::stable_sort(out.begin(), out.end(), [](const KernelLaunch* a, const KernelLaunch* b) {
        return a->delay_ns > b->delay_ns;
    });
    if (limit != 0 && out.size() > limit) out.resize(limit);
    return out;
}

} // namespace

table::TableSpec launchSummaryTable(const std::vector<LaunchStats>& ranks) {
    TableSpec spec;
    spec.title = "Launches";
    spec.columns = {
        rankColumn(),
        Column{"measure", "Measure", "What is timed"},
        Column{"count", "Launches", "Calls paired with their work", ColumnKind::Integer},
        usColumn("total_us", "Total (us)"),
        usColumn("mean_us", "Mean (us)"),
        usColumn("p50_us", "Median (us)"),
        usColumn("p95_us", "95% (us)"),
        usColumn("max_us", "Max (us)")};
    for (const LaunchStats& s : ranks)
        for (const Measure& m : kMeasures) {
            const LaunchMeasure& v = s.*(m.field);
            spec.rows.push_back({integerCell(s.rank), textCell(m.key),
                                 integerCell(int64_t(s.launches.size())), micros(double(v.total)),
                                 micros(v.mean), micros(v.p50), micros(v.p95), micros(v.max)});
        }
    return spec;
}

table::TableSpec launchOutlierTable(const std::vector<LaunchStats>& ranks) {
    TableSpec spec;
    spec.title = "Outliers";
    spec.columns = {rankColumn(), Column{"outlier", "Outlier", "HTA's kinds"},
                    Column{"rule", "Rule",
                           "The thresholds (--runtime-cutoff-us, "
                           "--launch-delay-cutoff-us)"},
                    Column{"count", "Launches", "", ColumnKind::Integer},
                    Column{"share_pct", "Share (%)", "Of the launches", ColumnKind::Number, false,
                           ColumnUnit::Percent}};
    for (const LaunchStats& s : ranks)
        for (size_t k = 0; k < kLaunchOutlierCount; ++k) {
            const double share =
                s.launches.empty() ? 0 : 100.0 * double(s.outliers[k]) / double(s.launches.size());
            spec.rows.push_back({integerCell(s.rank), textCell(toString(LaunchOutlier(k))),
                                 textCell(ruleOf(LaunchOutlier(k), s.options)),
                                 integerCell(s.outliers[k]), diagnosis::percentCell(share)});
        }
    return spec;
}

LaunchNames launchNames(const Trace& trace, const LaunchStats& stats) {
    LaunchNames out;
    std::unordered_map<uint32_t, uint32_t> index; // the trace's name -> out.names
    const auto nameOf = [&](int32_t event) {
        const TraceEvent e = trace.events[size_t(event)];
        const auto [at, added] = index.try_emplace(e.name, uint32_t(out.names.size()));
        if (added) out.names.emplace_back(trace.nameOf(e));
        return at->second;
    };
    for (const KernelLaunch& l : stats.launches) {
        out.kernel.push_back(nameOf(l.device));
        out.runtime.push_back(nameOf(l.runtime));
        out.start_ns.push_back(trace.events[size_t(l.device)].start_ns);
    }
    return out;
}

table::TableSpec outlierLaunchTable(const std::vector<LaunchStats>& ranks,
                                    const std::vector<LaunchNames>& names, size_t limit) {
    TableSpec spec;
    spec.title = "Outlying launches";
    spec.columns = {
        rankColumn(), usColumn("start_us", "Start (us)", "The work's start, from the trace's"),
        usColumn("cpu_duration_us", "CPU (us)", "The call's duration"),
        usColumn("gpu_duration_us", "GPU (us)", "The work's duration"),
        usColumn("launch_delay_us", "Delay (us)", "From the call's end to the work's start"),
        Column{"short_kernel", "Short", "", ColumnKind::YesNo},
        Column{"slow_runtime", "Slow Call", "", ColumnKind::YesNo},
        Column{"long_delay", "Long Delay", "", ColumnKind::YesNo},
        Column{"runtime", "Runtime Call", "The call that launched it"},
        // Last: kernel names run to hundreds of characters.
        Column{"kernel", "Kernel", "The kernel, copy or set"}};
    for (size_t r = 0; r < ranks.size(); ++r) {
        const LaunchStats& s = ranks[r];
        const LaunchNames& n = names.at(r);
        for (const KernelLaunch* l : outliersOf(s, limit)) {
            const size_t i = size_t(l - s.launches.data());
            std::vector<Cell> row{integerCell(s.rank), micros(double(n.start_ns[i])),
                                  micros(double(l->cpu_ns)), micros(double(l->gpu_ns)),
                                  micros(double(l->delay_ns))};
            for (size_t k = 0; k < kLaunchOutlierCount; ++k)
                row.push_back(yesNoCell(isOutlier(*l, LaunchOutlier(k), s.options)));
            row.push_back(textCell(n.names[n.runtime[i]]));
            row.push_back(textCell(n.names[n.kernel[i]]));
            spec.rows.push_back(std::move(row));
            spec.row_events.push_back(l->device);
        }
    }
    return spec;
}

nlohmann::json launchesJson(const std::vector<LaunchStats>& ranks,
                            const std::vector<LaunchNames>& names, size_t limit) {
    nlohmann::json out = nlohmann::json::array();
    LaunchStatOptions options;
    for (size_t r = 0; r < ranks.size(); ++r) {
        const LaunchStats& s = ranks[r];
        const LaunchNames& n = names.at(r);
        options = s.options;
        nlohmann::json list = nlohmann::json::array();
        for (size_t i = 0; i < s.launches.size(); ++i) {
            if (limit != 0 && list.size() >= limit) break;
            const KernelLaunch& l = s.launches[i];
            list.push_back({{"kernel", n.names[n.kernel[i]]},
                            {"runtime", n.names[n.runtime[i]]},
                            {"start_us", double(n.start_ns[i]) / 1000},
                            {"cpu_duration_us", double(l.cpu_ns) / 1000},
                            {"gpu_duration_us", double(l.gpu_ns) / 1000},
                            {"launch_delay_us", double(l.delay_ns) / 1000}});
        }
        nlohmann::json outliers = nlohmann::json::object();
        for (size_t k = 0; k < kLaunchOutlierCount; ++k)
            outliers[toString(LaunchOutlier(k))] = s.outliers[k];
        out.push_back({{"rank", s.rank},
                       {"launches", s.launches.size()},
                       {"cpu_duration_us", measureJson(s.cpu)},
                       {"gpu_duration_us", measureJson(s.gpu)},
                       {"launch_delay_us", measureJson(s.delay)},
                       {"outliers", std::move(outliers)},
                       {"launch_list", std::move(list)}});
    }
    return {{"runtime_cutoff_us", double(options.runtime_cutoff_ns) / 1000},
            {"launch_delay_cutoff_us", double(options.launch_delay_cutoff_ns) / 1000},
            {"ranks", std::move(out)}};
}

} // namespace ts
