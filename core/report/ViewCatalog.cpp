#include "report/ViewCatalog.h"

#include <cctype>

namespace ts::views {

const char* groupTitle(Group group) {
    switch (group) {
    case Group::Summary:
        return "Summary";
    case Group::Time:
        return "Time";
    case Group::Gpu:
        return "GPU";
    case Group::Memory:
        return "Memory";
    case Group::Ranks:
        return "Ranks";
    case Group::Compare:
        return "Compare";
    case Group::Experiments:
        return "Experiments";
    }
    return "";
}

const char* inputTitle(Input input) {
    switch (input) {
    case Input::Trace:
        return "a trace";
    case Input::TraceOrRun:
        return "a trace or a run";
    case Input::RankFolder:
        return "a folder of per-rank traces";
    case Input::TraceOrRanks:
        return "a trace or a folder of per-rank traces";
    case Input::TwoDocuments:
        return "two traces or runs";
    case Input::Run:
        return "a run";
    case Input::RunsFolder:
        return "the runs folder";
    case Input::Snapshot:
        return "an allocator snapshot";
    case Input::MemoryTimeline:
        return "a memory timeline";
    }
    return "";
}

const std::vector<ViewInfo>& catalog() {
    static const std::vector<ViewInfo> views{
        {"overview", "Overview", Group::Summary, Input::TraceOrRun, Cli | Gui,
         "steps by category (kernel, memcpy, data loading, CPU), GPU summary, recommendations"},
        {"live", "Live", Group::Summary, Input::Run, Gui,
         "a run's throughput, step time, memory, loss and accuracy as it trains"},
        {"operators", "Operators", Group::Time, Input::Trace, Cli | Gui,
         "operators with host and device times (--group-by name, shapes, stack, shapes-stack)"},
        {"timeline", "Timeline", Group::Time, Input::Trace, Gui,
         "every event on its thread or stream, zoomable, with launches and counters"},
        {"area", "Area", Group::Time, Input::Trace, Cli,
         "what lies in a time range on every lane (the timeline's area selection): each name "
         "overall and per lane with count, total, self, in-area, mean, min, max; the range's "
         "Overview categories and GPU busy share; memory (--start-us and --end-us, or --step, "
         "or --annotation with --instance)"},
        {"query", "Query", Group::Time, Input::Trace, Gui,
         "SQL over the trace: slices, kernels, launches, counters, memory, steps, args "
         "(docs/sql.md; trace-query on the CLI)"},
        {"modules", "Modules", Group::Time, Input::Trace, Cli | Gui,
         "the nn.Module tree with host and device times (traces recorded with "
         "with_modules=True or with_stack=True)"},
        {"kernels", "Kernels", Group::Gpu, Input::Trace, Cli | Gui, "GPU kernels by name"},
        {"kernels-by-op", "Kernels by operator", Group::Gpu, Input::Trace, Cli,
         "GPU kernels by name, operator and launch configuration"},
        {"temporal", "Temporal", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' temporal breakdown: the GPU idle, computing, or busy with "
         "anything else"},
        {"idle", "Idle Time", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' idle-time breakdown: each stream's gaps by cause (host "
         "wait, kernel wait, other), with their distribution (--kernel-wait-us)"},
        {"launches", "Launches", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' kernel launch statistics: each launch's CPU and GPU "
         "duration and delay, and the outliers (--runtime-cutoff-us, --launch-delay-cutoff-us)"},
        {"kernel-types", "Kernel Types", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' kernel breakdown: computation, communication and memory "
         "time, alone and overlapping, and each kernel by type"},
        {"queue", "Queue Length", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' queue length: per stream, the work launched but not yet "
         "started, and the time the queue was full (--max-queue-length)"},
        {"memory-bw", "Memory Bandwidth", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' memory bandwidth: per kind of copy (HtoD, DtoH, DtoD, "
         "Memset), the bandwidth of the copies running at once"},
        {"annotations", "Annotations", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' user-annotation breakdown: each record_function range's time "
         "and the kernels under it with their GPU time (--annotations gpu|cpu)"},
        {"kernel-sequences", "Kernel Sequences", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' frequent kernel sequences: the kernels each operator call "
         "launched, how often each sequence recurs, its CPU and GPU time and delays (--operator, "
         "--min-pattern-len)"},
        {"critical-path", "Critical Path", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' critical path of a step: what the step waited for (CPU, GPU, "
         "launch and kernel overhead, data loading), the operators and kernels on it, and "
         "what-if: the step with any of them faster (--step, --annotation, --instance, --rank, "
         "--what-if)"},
        {"roofline", "Roofline", Group::Gpu, Input::Trace, Gui,
         "operators by arithmetic intensity against the device's peaks"},
        {"memory", "Memory", Group::Memory, Input::Trace, Cli | Gui,
         "memory over time, allocations and per-operator statistics (also Trainscope's own "
         "traces)"},
        {"snapshot", "Allocator Snapshot", Group::Memory, Input::Snapshot, Gui,
         "a PyTorch allocator snapshot: allocated and reserved memory over its trace, what was "
         "alive at the peak (or any entry) by stack, segments, OOMs (memory-stats on the CLI)"},
        {"memory-categories", "Memory by Category", Group::Memory, Input::MemoryTimeline, Gui,
         "torch.profiler's export_memory_timeline file: Parameter, Optimizer state, Input, "
         "Temporary, Activation, Gradient, Autograd and Unknown over time, stacked, and at the "
         "peak (trace-stats FILE on the CLI)"},
        {"distributed", "Distributed", Group::Ranks, Input::RankFolder, Cli | Gui,
         "ranks side by side: computation, communication, waiting (a folder of per-rank "
         "traces)"},
        {"diff", "Diff", Group::Compare, Input::TwoDocuments, Gui,
         "two traces or runs compared: operators, kernels, aligned steps"},
        {"runs", "Runs", Group::Compare, Input::RunsFolder, Gui,
         "the runs folder: every run, sortable, to open or compare"},
        {"experiments", "Experiments", Group::Experiments, Input::RunsFolder, Gui,
         "sweeps, ladders and pruning studies"},
    };
    return views;
}

const ViewInfo* findView(std::string_view name) {
    const auto same = [](std::string_view a, std::string_view b) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (std::tolower(static_cast<unsigned char>(a[i])) !=
                std::tolower(static_cast<unsigned char>(b[i])))
                return false;
        return true;
    };
    for (const ViewInfo& view : catalog())
        if (same(view.name, name)) return &view;
    return nullptr;
}

namespace {

std::string joinQuoted(const std::vector<const char*>& names) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
        out += std::string("'") + names[i] + "'";
    }
    return out;
}

} // namespace

std::string quotedNames(Surface surface) {
    std::vector<const char*> names;
    for (const ViewInfo& view : catalog())
        if (view.surfaces & surface) names.push_back(view.name);
    return joinQuoted(names);
}

std::string quotedRankFolderNames() {
    std::vector<const char*> names;
    for (const ViewInfo& view : catalog())
        if ((view.surfaces & Cli) &&
            (view.input == Input::RankFolder || view.input == Input::TraceOrRanks))
            names.push_back(view.name);
    return joinQuoted(names);
}

} // namespace ts::views
