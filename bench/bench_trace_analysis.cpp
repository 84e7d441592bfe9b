// Where the GPU analysis of a trace spends its time: each stage of
// analyzeGpuTrace (the Overview's, the Operators' and Kernels' views) run
// alone, in order, on one thread, and the whole analysis as the commands run
// it; medians of --runs runs. The trace is opened through the trace cache, so
// a trace read once before loads from its index. Torch-free.
//   bench_trace_analysis FILE [--runs N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "analysis/GpuTraceAnalysis.h"
#include "trace/TraceCache.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

struct Stage {
    const char* name;
    std::vector<double> runs;
};

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_trace_analysis FILE [--runs N]\n");
        return 2;
    }
    const std::string file = argv[1];
    int runs = 5;
    for (int i = 2; i + 1 < argc; i += 2)
        if (std::strcmp(argv[i], "--runs") == 0) runs = std::max(1, std::atoi(argv[i + 1]));

    const Clock::time_point open_start = Clock::now();
    ts::TraceOpening opening;
    const ts::TraceCacheSettings settings;
    ts::Trace trace;
    try {
        trace = ts::openTrace(file, {}, settings, opening);
        if (!opening.from_index) ts::keepTraceIndex(trace, settings, opening);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    std::printf("%s: %zu events, opened in %.2f s (%s)\n", file.c_str(), trace.events.size(),
                seconds(open_start), opening.from_index ? "from its index" : "JSON");

    const ts::GpuAnalysisOptions options;
    std::vector<Stage> stages{
        {"collectKinetoEvents", {}}, {"linkLaunches", {}},        {"computeGpuOverview", {}},
        {"buildDeviceOpTree", {}},   {"computeKernelTables", {}}, {"computeGpuMetrics", {}},
        {"recommendForTrace", {}},   {"operators (by name)", {}}, {"analyzeGpuTrace (all)", {}}};
    for (int r = 0; r < runs; ++r) {
        size_t s = 0;
        auto time = [&](const std::function<void()>& stage) {
            const Clock::time_point t0 = Clock::now();
            stage();
            stages[s++].runs.push_back(seconds(t0));
        };
        ts::GpuTraceAnalysis a;
        time([&] { a.events = ts::collectKinetoEvents(trace, options); });
        time([&] { a.links = ts::linkLaunches(trace, a.events); });
        time([&] { a.overview = ts::computeGpuOverview(trace, a.events, a.links, options); });
        time([&] { a.tree = ts::buildDeviceOpTree(trace, a.events, a.links, options); });
        time([&] {
            a.kernels = ts::computeKernelTables(trace, a.events, a.links, a.tree,
                                                options.plugin_compatible);
        });
        time([&] {
            a.metrics = ts::computeGpuMetrics(trace, a.events, a.links, a.tree, a.overview,
                                              options.plugin_compatible);
        });
        time([&] { a.recommendations = ts::recommendForTrace(trace, a.overview, a.metrics); });
        time([&] { (void)a.operators(trace); });
        a = ts::GpuTraceAnalysis();
        time([&] { a = ts::analyzeGpuTrace(trace, options); });
    }
    std::printf("%-24s %10s %10s\n", "stage", "median s", "min s");
    for (const Stage& st : stages)
        std::printf("%-24s %10.3f %10.3f\n", st.name, median(st.runs),
                    *std::min_element(st.runs.begin(), st.runs.end()));
    return 0;
}
