// Where the GPU analysis of a trace spends its time: each stage of
// analyzeGpuTrace (the Overview's, the Operators' and Kernels' views) run
// alone, in order, on one thread, and the whole analysis as the commands run
// it; medians of --runs runs. The trace is opened through the trace cache, so
// a trace read once before loads from its index. Then what the trace and each
// stage's result hold in memory (heap in use after the stage, results kept),
// which is where the peak of `trace-stats --view` comes from. Torch-free.
//   bench_trace_analysis FILE [--runs N]
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "BenchTiming.h"
#include "BenchTrace.h"
#include "analysis/GpuTraceAnalysis.h"

namespace {

using ts::bench::Clock;
using ts::bench::median;

double seconds(Clock::time_point since) {
    return ts::bench::secondsSince(since);
}

struct Stage {
    const char* name;
    std::vector<double> runs;
};

size_t heapInUse() {
    const struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

double perEvent(size_t bytes, size_t events) {
    return events ? double(bytes) / double(events) : 0;
}

// The trace's store by column and its string tables, in bytes per event.
void printTraceMemory(const ts::Trace& trace) {
    const size_t n = trace.events.size();
    const ts::EventStore::MemoryParts p = trace.events.memoryParts();
    size_t strings = 0;
    for (const auto* table : {&trace.names, &trace.strings})
        for (const std::string& s : *table)
            strings += sizeof(std::string) + (s.capacity() > 15 ? s.capacity() + 1 : 0);
    std::printf("memory, bytes per event: store %.1f (core %.1f, ids %.1f, op %.1f, "
                "signatures %.1f, rare %.1f, launches %.1f, costs %.1f, memory %.1f, maps %.1f); "
                "names and strings %.1f\n",
                perEvent(trace.events.memoryBytes(), n), perEvent(p.core, n), perEvent(p.ids, n),
                perEvent(p.op, n), perEvent(p.signatures, n), perEvent(p.rare, n),
                perEvent(p.launches, n), perEvent(p.costs, n), perEvent(p.memory, n),
                perEvent(p.maps, n), perEvent(strings, n));
    std::printf("beside the store, bytes per event: CPU memory samples %.1f (%zu), device memory "
                "events %.1f (%zu), Python frames %.1f (%zu)\n",
                perEvent(trace.memory.capacity() * sizeof(ts::MemorySample), n),
                trace.memory.size(),
                perEvent(trace.kineto.memory.capacity() * sizeof(ts::DeviceMemoryEvent), n),
                trace.kineto.memory.size(),
                perEvent(trace.kineto.python_frames.capacity() * sizeof(ts::PythonFrame), n),
                trace.kineto.python_frames.size());
}

// Each stage once more, its result kept: the heap it adds, per event.
void printStageMemory(const ts::Trace& trace, const ts::GpuAnalysisOptions& options) {
    const size_t n = trace.events.size();
    ts::GpuTraceAnalysis a;
    size_t before = heapInUse();
    auto added = [&](const char* stage) {
        const size_t now = heapInUse();
        std::printf("  %-22s %8.1f MB %8.1f B/event\n", stage, double(now - before) / 1e6,
                    perEvent(now - before, n));
        before = now;
    };
    std::printf("heap kept by each stage's result:\n");
    a.events = ts::collectKinetoEvents(trace, options);
    added("collectKinetoEvents");
    a.links = ts::linkLaunches(trace, a.events);
    added("linkLaunches");
    a.overview = ts::computeGpuOverview(trace, a.events, a.links, options);
    added("computeGpuOverview");
    a.tree = ts::buildDeviceOpTree(trace, a.events, a.links, options);
    added("buildDeviceOpTree");
    std::printf("  (%zu nodes of %zu B, %zu children, %zu runtime calls)\n", a.tree.nodes.size(),
                sizeof(ts::OpNode), a.tree.child_list.size(), a.tree.runtime_list.size());
    a.kernels =
        ts::computeKernelTables(trace, a.events, a.links, a.tree, options.plugin_compatible);
    added("computeKernelTables");
    a.metrics = ts::computeGpuMetrics(trace, a.events, a.links, a.tree, a.overview,
                                      options.plugin_compatible);
    added("computeGpuMetrics");
}

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
    bool from_index = false;
    ts::Trace trace;
    try {
        trace = ts::bench::openBenchTrace(file, from_index);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    std::printf("%s: %zu events, opened in %.2f s (%s)\n", file.c_str(), trace.events.size(),
                seconds(open_start), from_index ? "from its index" : "JSON");

    const size_t heap_with_trace = heapInUse();
    const ts::GpuAnalysisOptions options;
    std::vector<Stage> stages{{"collectKinetoEvents", {}},   {"linkLaunches", {}},
                              {"computeGpuOverview", {}},    {"buildDeviceOpTree", {}},
                              {"computeKernelTables", {}},   {"computeGpuMetrics", {}},
                              {"recommendForTrace", {}},     {"operators (by name)", {}},
                              {"analyzeGpuTrace (all)", {}}, {"analyzeGpuTrace (overview)", {}}};
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
        a = ts::GpuTraceAnalysis();
        time([&] { a = ts::analyzeGpuTrace(trace, options, ts::GpuAnalysisScope::Overview); });
    }
    std::printf("%-24s %10s %10s\n", "stage", "median s", "min s");
    for (const Stage& st : stages)
        std::printf("%-24s %10.3f %10.3f\n", st.name, median(st.runs),
                    *std::min_element(st.runs.begin(), st.runs.end()));
    printTraceMemory(trace);
    std::printf("heap in use with the trace open: %.1f MB\n", double(heap_with_trace) / 1e6);
    printStageMemory(trace, options);
    return 0;
}
