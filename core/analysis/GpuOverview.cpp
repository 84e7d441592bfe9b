#include "analysis/GpuOverview.h"

#include <algorithm>
#include <limits>
#include <unordered_set>

#include "analysis/NameFlags.h"
#include "trace/KinetoNames.h"

namespace ts {

const char* toString(GpuRole role) {
    static const char* const kNames[] = {"Kernel",        "Memcpy",  "Memset",
                                         "Communication", "Runtime", "DataLoader",
                                         "CPU Exec",      "Other",   "Total"};
    return kNames[static_cast<size_t>(role)];
}

const char* keyOf(GpuRole role) {
    static const char* const kKeys[] = {"kernel",        "memcpy",  "memset",
                                        "communication", "runtime", "dataloader",
                                        "cpu_exec",      "other",   "total"};
    return kKeys[static_cast<size_t>(role)];
}

double GpuOverview::share(GpuRole role) const {
    const double total = average_ns[static_cast<size_t>(GpuRole::Total)];
    return total > 0 ? average_ns[static_cast<size_t>(role)] / total : 0;
}

namespace {

constexpr int64_t kNoTime = std::numeric_limits<int64_t>::max();

struct HostStep {
    std::string label;
    int64_t start, end;
};

class OverviewBuilder {
public:
    OverviewBuilder(const Trace& trace, const KinetoEvents& events, const LaunchLinks& links,
                    const GpuAnalysisOptions& options, bool keep_roles)
        : trace_(trace), events_(events), links_(links), options_(options),
          flags_(trace.names, options.plugin_compatible), keep_roles_(keep_roles) {}

    GpuOverview build();

private:
    bool collective(const KinetoEvent& e) const {
        return flags_.collective(trace_.events.core(size_t(e.event)).name);
    }
    const std::string& name(const KinetoEvent& e) const {
        return trace_.names[trace_.events.core(size_t(e.event)).name];
    }
    void roleRanges();
    void extendSteps();
    void splitCosts();

    const Trace& trace_;
    const KinetoEvents& events_;
    const LaunchLinks& links_;
    const GpuAnalysisOptions& options_;
    const NameFlags flags_;
    const bool keep_roles_;
    GpuOverview out_;
    std::array<RangeMerger, 8> raw_; // per GpuRole
    std::vector<HostStep> steps_;
};

void OverviewBuilder::roleRanges() {
    // External ids of collectives: their kernels are communication.
    std::unordered_set<int64_t> comm_ids;
    for (const KinetoEvent& e : events_.events) {
        if (!isHostType(e.type) || !collective(e)) continue;
        comm_ids.insert(kinetoIds(trace_, e).external_id);
        // By the library's own ranges: a c10d:: call or record_param_comms
        // names neither (PyTorch 2's Gloo jobs have both, and no NCCL).
        const std::string& n = name(e);
        if (n.rfind("gloo:", 0) == 0) out_.gloo = true;
        if (n.rfind("nccl:", 0) == 0) out_.nccl = true;
    }
    int64_t cpu_min = kNoTime, cpu_max = std::numeric_limits<int64_t>::min();
    int64_t global_min = kNoTime, global_max = std::numeric_limits<int64_t>::min();
    bool profiler_range = false;
    auto add = [&](GpuRole role, const KinetoEvent& e) {
        raw_[static_cast<size_t>(role)].add(e.start, e.end);
    };
    for (const KinetoEvent& e : events_.events) {
        const uint32_t name_id = trace_.events.core(size_t(e.event)).name;
        global_min = std::min(global_min, e.start);
        global_max = std::max(global_max, e.end);
        if (e.type == PluginType::Python || e.type == PluginType::Operator ||
            e.type == PluginType::ProfilerStep) {
            cpu_min = std::min(cpu_min, e.start);
            cpu_max = std::max(cpu_max, e.end);
        }
        if (isDeviceType(e.type)) {
            const int32_t lane = trace_.events.core(size_t(e.event)).lane;
            const TraceLane& l = trace_.lanes[lane];
            out_.used_devices.insert(l.gpu >= 0 ? l.gpu : 0);
        }
        if (flags_.dataParallelForward(name_id)) out_.use_dp = true;
        if (flags_.ddpForward(name_id)) out_.use_ddp = true;
        switch (e.type) {
        case PluginType::Kernel: {
            const int64_t external_id = comm_ids.empty() ? -1 : kinetoIds(trace_, e).external_id;
            const bool comm = (external_id >= 0 && comm_ids.count(external_id)) ||
                              (!options_.plugin_compatible && flags_.communicationKernel(name_id));
            add(comm ? GpuRole::Communication : GpuRole::Kernel, e);
            break;
        }
        case PluginType::Memcpy:
            add(GpuRole::Memcpy, e);
            break;
        case PluginType::Memset:
            add(GpuRole::Memset, e);
            break;
        case PluginType::Runtime:
            add(GpuRole::Runtime, e);
            break;
        case PluginType::ProfilerStep:
            steps_.push_back(HostStep{
                std::to_string(std::max<int64_t>(0, profilerStepNumber(name(e)))), e.start, e.end});
            break;
        case PluginType::Operator:
        case PluginType::UserAnnotation:
            if (flags_.dataLoader(name_id)) {
                add(GpuRole::DataLoader, e);
                break;
            }
            [[fallthrough]];
        case PluginType::Python:
            add(collective(e) ? GpuRole::Communication : GpuRole::CpuExec, e);
            break;
        case PluginType::Trace:
            if (flags_.profilerRange(name_id)) {
                profiler_range = true;
                out_.global_start_ns = e.start;
                out_.global_end_ns = e.end;
            }
            break;
        }
    }
    if (!profiler_range && global_min != kNoTime) {
        out_.global_start_ns = global_min;
        out_.global_end_ns = global_max;
    }
    // Trainscope's own traces mark their steps on a track of their own
    // (trace.steps, not events); the plugin knows only ProfilerStep events.
    if (steps_.empty() && !options_.plugin_compatible)
        for (const StepMark& m : trace_.steps)
            steps_.push_back(HostStep{std::to_string(m.step), m.start_ns, m.end_ns});
    if (steps_.empty() && global_min != kNoTime) {
        // Without ProfilerStep one step spans the CPU ops (the whole trace
        // when there are none: the plugin's range would be empty).
        if (cpu_min == kNoTime) cpu_min = global_min, cpu_max = global_max;
        steps_.push_back(HostStep{"0", cpu_min, cpu_max});
    }
    // Zero-length events count here (a 0 us cudaLaunchKernel is a runtime).
    out_.has_kernel = raw_[static_cast<size_t>(GpuRole::Kernel)].anyAdded();
    out_.has_runtime = raw_[static_cast<size_t>(GpuRole::Runtime)].anyAdded();
    out_.has_memcpy_or_memset = raw_[static_cast<size_t>(GpuRole::Memcpy)].anyAdded() ||
                                raw_[static_cast<size_t>(GpuRole::Memset)].anyAdded();
    out_.has_communication = raw_[static_cast<size_t>(GpuRole::Communication)].anyAdded();
    for (size_t r = 0; r < raw_.size(); ++r)
        out_.roles[r] = raw_[r].take();
}

// A step lasts until the device work launched from inside it ends.
void OverviewBuilder::extendSteps() {
    std::vector<const RuntimeCall*> calls;
    for (const RuntimeCall& c : links_.runtimes)
        calls.push_back(&c);
    std::stable_sort(calls.begin(), calls.end(), [](const RuntimeCall* a, const RuntimeCall* b) {
        return a->start < b->start;
    });
    const size_t n = steps_.size();
    std::vector<int64_t> dev_start(n, kNoTime), dev_end(n, std::numeric_limits<int64_t>::min());
    std::vector<int64_t> matched(n, 0);
    std::vector<char> matched_work(events_.events.size(), 0); // by KinetoEvents position
    bool any_matched = false;
    size_t i = 0, j = 0;
    while (i < n && j < calls.size()) {
        const RuntimeCall& c = *calls[j];
        if (c.start < steps_[i].start) {
            ++j; // launched before the step (or straddling its start)
        } else if (c.end <= steps_[i].end) {
            for (int32_t p : c.device) {
                dev_start[i] = std::min(dev_start[i], events_.events[p].start);
                dev_end[i] = std::max(dev_end[i], events_.events[p].end);
                ++matched[i];
                matched_work[size_t(p)] = 1;
                any_matched = true;
            }
            ++j;
        } else if (c.start < steps_[i].end) {
            ++j; // straddles the step's end
        } else {
            ++i;
        }
    }
    if (!any_matched) return;
    int64_t prev_end = steps_[0].start;
    if (matched[0] > 0) {
        // Device work launched before the first step delays its start.
        for (size_t p = 0; p < events_.events.size(); ++p) {
            const KinetoEvent& d = events_.events[p];
            if (!isDeviceType(d.type) || matched_work[p]) continue;
            if (d.end < dev_start[0]) prev_end = std::max(prev_end, d.end);
        }
    }
    for (size_t s = 0; s < n; ++s) {
        const int64_t start = std::max(prev_end, steps_[s].start);
        int64_t end =
            matched[s] == 0 ? std::max(steps_[s].end, start) : std::max(steps_[s].end, dev_end[s]);
        if (end < start) end = start;
        steps_[s].start = start;
        steps_[s].end = end;
        prev_end = end;
    }
    if (n <= 1) return;
    // Trailing steps without device work go; so does the last one with
    // device work if it launched under 80% of its predecessor's (the
    // profiler stopped before all its kernels were recorded).
    size_t keep = n;
    for (size_t k = n; k-- > 0;) {
        if (matched[k] == 0) continue;
        keep = k + 1;
        if (k > 0 && static_cast<double>(matched[k - 1]) * 0.8 > static_cast<double>(matched[k]))
            keep = k;
        break;
    }
    steps_.resize(keep);
}

// Each role's share of the steps is measured as soon as it is known and let
// go: the eight lists at once were a tenth of the peak of opening a 1 GB
// GPU trace.
void OverviewBuilder::splitCosts() {
    RangeList step_ranges;
    for (const HostStep& s : steps_) {
        step_ranges.emplace_back(s.start, s.end);
        GpuStep step{s.label, s.start, s.end, {}};
        step.cost_ns[8] = s.end - s.start;
        out_.steps.push_back(std::move(step));
    }
    auto measure = [this](size_t role, const RangeList& range) {
        for (GpuStep& step : out_.steps)
            step.cost_ns[role] = lengthWithin(range, step.start_ns, step.end_ns);
    };
    RangeList slots;
    for (size_t r = 0; r < 7; ++r) {
        RangeList range;
        if (!slots.empty() || (r > 0 && !options_.plugin_compatible)) {
            range = intersectRanges(slots, out_.roles[r]);
        } else {
            // The plugin restarts from the whole steps whenever nothing is
            // left (which makes Other count a fully covered step again).
            // A role list the caller does not keep is taken, not copied.
            range = keep_roles_ ? out_.roles[r] : std::move(out_.roles[r]);
            slots = mergeRanges(step_ranges);
            if (!options_.plugin_compatible) range = intersectRanges(slots, range);
        }
        if (!keep_roles_) RangeList().swap(out_.roles[r]); // used up: let go at once
        slots = subtractRanges(slots, range);
        measure(r, range);
    }
    measure(7, slots);
    for (const GpuStep& s : out_.steps)
        for (size_t r = 0; r < kGpuRoleCount; ++r)
            out_.average_ns[r] += static_cast<double>(s.cost_ns[r]);
    if (!out_.steps.empty())
        for (double& v : out_.average_ns)
            v /= static_cast<double>(out_.steps.size());
}

GpuOverview OverviewBuilder::build() {
    roleRanges();
    if (!steps_.empty()) {
        extendSteps();
        splitCosts();
    }
    if (!keep_roles_)
        for (RangeList& ranges : out_.roles)
            RangeList().swap(ranges);
    return std::move(out_);
}

} // namespace

GpuOverview computeGpuOverview(const Trace& trace, const KinetoEvents& events,
                               const LaunchLinks& links, const GpuAnalysisOptions& options,
                               bool keep_roles) {
    return OverviewBuilder(trace, events, links, options, keep_roles).build();
}

} // namespace ts
