#include "report/ViewCatalog.h"

#include <algorithm>
#include <cctype>
#include <limits>

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

namespace {

constexpr double kNoLimit = std::numeric_limits<double>::infinity();

// Every option a view of the CLI takes, declared once; the views below name
// those they take.
struct Declared {
    using O = OptionInfo;
    O table_group_by = O::choice("--group-by", {{"name", ""}, {"shapes", "name and input shapes"}},
                                 "how operators are grouped")
                           .byDefault("name");
    O operators_group_by = O::choice("--group-by",
                                     {{"name", ""},
                                      {"shapes", "name and input shapes"},
                                      {"stack", "name and call stack"},
                                      {"shapes-stack", "name, input shapes and call stack"}},
                                     "how operators are grouped")
                               .byDefault("name");
    O scope =
        O::choice("--scope",
                  {{"all", ""}, {"forward", "the forward pass"}, {"backward", "the backward pass"}},
                  "the operators of one pass only")
            .byDefault("all");
    O sort = O::text("--sort", "the column to sort by").byDefault("self_cpu");
    O device = O::text("--device", "one device (GPU0, CPU)").byDefault(nullptr, "every device");
    O start_us =
        O::micros("--start-us", 0, 9e12, "from this time, counted from the start of the trace")
            .byDefault(nullptr, "the start of the trace");
    O end_us = O::micros("--end-us", 0, 9e12, "up to this time (exclusive)")
                   .byDefault(nullptr, "the end of the trace");
    O span = O::whole("--span", 1, 1000000,
                      "the profiling span of a folder of per-rank traces, 1..n in time order")
                 .byDefault("1");
    O ranks = O::text("--ranks", "the ranks whose full rows are printed: 0,5-7,12 or all")
                  .byDefault(nullptr, "every rank up to 16 ranks, else none");
    O kernel_wait_us = O::micros("--kernel-wait-us", 0, 1e9,
                                 "gaps shorter than this before work launched in time are kernel "
                                 "wait (HTA's consecutive_kernel_delay)")
                           .byDefault("30", "HTA's");
    O runtime_cutoff_us =
        O::micros("--runtime-cutoff-us", 0, 1e9, "runtime calls longer than this are outliers")
            .byDefault("50", "HTA's");
    O launch_delay_cutoff_us =
        O::micros("--launch-delay-cutoff-us", 0, 1e9, "launch delays longer than this are outliers")
            .byDefault("100", "HTA's");
    O max_queue_length = O::whole("--max-queue-length", 1, 1000000,
                                  "a stream's queue counts as full from this length")
                             .byDefault("1024", "CUDA's and HTA's");
    O annotation_side =
        O::choice("--annotations",
                  {{"gpu", "the ranges as the GPU ran them"},
                   {"cpu", "the ranges on the CPU (HTA's use_gpu_annotation=False)"}},
                  "which user annotations")
            .byDefault("gpu", "HTA's");
    O operator_text = O::text("--operator", "the calls whose name contains this text")
                          .byDefault(nullptr, "every outermost operator");
    O min_pattern_len =
        O::whole("--min-pattern-len", 1, 1000000, "calls that launched fewer kernels are left out")
            .byDefault("3", "HTA's")
            .describedAs("a count of kernels");
    O step = O::whole("--step", 0, kNoLimit, "the step (ProfilerStep#N) to analyse")
                 .byDefault(nullptr, "the first step");
    O annotation = O::text("--annotation",
                           "instead, an instance of the annotation whose name contains this text");
    O instance = O::whole("--instance", 0, kNoLimit, "which instance of --annotation")
                     .byDefault(nullptr, "0, the first");
    O rank = O::whole("--rank", 0, kNoLimit, "on a folder of per-rank traces: the rank")
                 .byDefault(nullptr, "the lowest");
    O what_if =
        O::textList("--what-if", "kernel:NAME=F, op:NAME=F or category:NAME=F (F = factor on their "
                                 "time, 0.5 = twice as fast); repeatable");
};

const Declared& declared() {
    static const Declared options;
    return options;
}

// The options a view takes, as its catalog entry names them.
template <typename... Options> std::vector<const OptionInfo*> takes(const Options&... options) {
    return {&options...};
}

} // namespace

const std::vector<const OptionInfo*>& operatorTableOptions() {
    const Declared& o = declared();
    static const std::vector<const OptionInfo*> options = takes(o.table_group_by, o.scope, o.sort);
    return options;
}

const std::vector<const OptionInfo*>& windowOptions() {
    const Declared& o = declared();
    static const std::vector<const OptionInfo*> options = takes(o.step, o.annotation, o.instance);
    return options;
}

const std::vector<ViewInfo>& catalog() {
    const Declared& o = declared();
    static const std::vector<ViewInfo> views{
        {"overview", "Overview", Group::Summary, Input::TraceOrRun, Cli | Gui,
         "steps by category (kernel, memcpy, data loading, CPU), GPU summary, recommendations"},
        {"live", "Live", Group::Summary, Input::Run, Gui,
         "a run's throughput, step time, memory, loss and accuracy as it trains"},
        {"operators", "Operators", Group::Time, Input::Trace, Cli | Gui,
         "operators with host and device times (--group-by name, shapes, stack, shapes-stack)",
         takes(o.operators_group_by)},
        {"timeline", "Timeline", Group::Time, Input::Trace, Gui,
         "every event on its thread or stream, zoomable, with launches and counters"},
        {"area", "Area", Group::Time, Input::Trace, Cli,
         "what lies in a time range on every lane (the timeline's area selection): each name "
         "overall and per lane with count, total, self, in-area, mean, min, max; the range's "
         "Overview categories and GPU busy share; memory (--start-us and --end-us, or --step, "
         "or --annotation with --instance)",
         takes(o.start_us, o.end_us, o.step, o.annotation, o.instance)},
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
         "anything else",
         takes(o.span)},
        {"idle", "Idle Time", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' idle-time breakdown: each stream's gaps by cause (host "
         "wait, kernel wait, other), with their distribution (--kernel-wait-us)",
         takes(o.kernel_wait_us, o.span)},
        {"launches", "Launches", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' kernel launch statistics: each launch's CPU and GPU "
         "duration and delay, and the outliers (--runtime-cutoff-us, --launch-delay-cutoff-us)",
         takes(o.runtime_cutoff_us, o.launch_delay_cutoff_us, o.span)},
        {"kernel-types", "Kernel Types", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' kernel breakdown: computation, communication and memory "
         "time, alone and overlapping, and each kernel by type",
         takes(o.span)},
        {"queue", "Queue Length", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' queue length: per stream, the work launched but not yet "
         "started, and the time the queue was full (--max-queue-length)",
         takes(o.max_queue_length, o.span)},
        {"memory-bw", "Memory Bandwidth", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' memory bandwidth: per kind of copy (HtoD, DtoH, DtoD, "
         "Memset), the bandwidth of the copies running at once",
         takes(o.span)},
        {"annotations", "Annotations", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' user-annotation breakdown: each record_function range's time "
         "and the kernels under it with their GPU time (--annotations gpu|cpu)",
         takes(o.annotation_side, o.span)},
        {"kernel-sequences", "Kernel Sequences", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' frequent kernel sequences: the kernels each operator call "
         "launched, how often each sequence recurs, its CPU and GPU time and delays (--operator, "
         "--min-pattern-len)",
         takes(o.operator_text, o.min_pattern_len, o.span)},
        {"critical-path", "Critical Path", Group::Gpu, Input::TraceOrRanks, Cli | Gui,
         "Holistic Trace Analysis' critical path of a step: what the step waited for (CPU, GPU, "
         "launch and kernel overhead, data loading), the operators and kernels on it, and "
         "what-if: the step with any of them faster (--step, --annotation, --instance, --rank, "
         "--what-if)",
         takes(o.step, o.annotation, o.instance, o.rank, o.what_if, o.span)},
        {"roofline", "Roofline", Group::Gpu, Input::Trace, Gui,
         "operators by arithmetic intensity against the device's peaks"},
        {"memory", "Memory", Group::Memory, Input::Trace, Cli | Gui,
         "memory over time, allocations and per-operator statistics (also Trainscope's own "
         "traces)",
         takes(o.device, o.start_us, o.end_us)},
        {"snapshot", "Allocator Snapshot", Group::Memory, Input::Snapshot, Gui,
         "a PyTorch allocator snapshot: allocated and reserved memory over its trace, what was "
         "alive at the peak (or any entry) by stack, segments, OOMs (memory-stats on the CLI)"},
        {"memory-categories", "Memory by Category", Group::Memory, Input::MemoryTimeline, Gui,
         "torch.profiler's export_memory_timeline file: Parameter, Optimizer state, Input, "
         "Temporary, Activation, Gradient, Autograd and Unknown over time, stacked, and at the "
         "peak (trace-stats FILE on the CLI)"},
        {"distributed", "Distributed", Group::Ranks, Input::RankFolder, Cli | Gui,
         "ranks side by side, and across 1,024 ranks the distributions, who the others wait "
         "for, a rank x step heat map (a folder of per-rank traces or their summaries)",
         takes(o.span, o.ranks)},
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

std::vector<const OptionInfo*> cliOptions() {
    std::vector<const OptionInfo*> out;
    const auto add = [&out](const std::vector<const OptionInfo*>& options) {
        for (const OptionInfo* option : options)
            if (std::find(out.begin(), out.end(), option) == out.end()) out.push_back(option);
    };
    for (const ViewInfo& view : catalog())
        if (view.surfaces & Cli) add(view.options);
    add(operatorTableOptions());
    return out;
}

namespace {

// "--view idle", "--view area and critical-path", "the operator table (no
// --view)": what takes the options `takes` accepts.
template <typename Takes> std::string takers(Takes takes) {
    std::vector<const char*> names;
    for (const ViewInfo& view : catalog())
        if ((view.surfaces & Cli) && std::any_of(view.options.begin(), view.options.end(), takes))
            names.push_back(view.name);
    std::string out;
    for (size_t i = 0; i < names.size(); ++i)
        out += (i == 0                  ? "--view "
                : i + 1 == names.size() ? " and "
                                        : ", ") +
               std::string(names[i]);
    const std::vector<const OptionInfo*>& table = operatorTableOptions();
    if (std::any_of(table.begin(), table.end(), takes))
        out += (out.empty() ? "" : " and ") + std::string("the operator table (no --view)");
    return out;
}

} // namespace

std::string cliTakersOf(const OptionInfo& option) {
    return takers([&option](const OptionInfo* o) { return o == &option; });
}

std::string cliTakersOf(std::string_view name) {
    return takers([name](const OptionInfo* o) { return name == o->name; });
}

} // namespace ts::views
