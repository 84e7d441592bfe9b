#include "analysis/KernelSequences.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace ts {
namespace {

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

// Which events may head a sequence: a call whose name holds the text, or
// without one any CPU operator; never device work (HTA's substring match
// can pick a kernel's name, which then empties its result).
class Candidates {
public:
    Candidates(const Trace& trace, const SequenceOptions& options) : trace_(trace) {
        const std::string& text = options.operator_text;
        if (text.empty()) return;
        named_.resize(trace.names.size());
        for (size_t n = 0; n < trace.names.size(); ++n)
            named_[n] = trace.names[n].find(text) != std::string::npos;
    }

    bool operator()(int32_t event) const {
        const TraceEvent e = trace_.events[size_t(event)];
        if (trace_.lanes[size_t(e.lane)].device) return false;
        if (named_.empty()) return trace_.categoryOf(event) == KinetoCategory::Operator;
        return named_[e.name] != 0;
    }

private:
    const Trace& trace_;
    std::vector<char> named_; // per name; empty: by category
};

// HTA's call depth: the depth on the thread, where the autograd thread's
// top-level calls hang below the main thread's "## backward ##" (else
// ProfilerStep) range around them, when there is one thread of each.
class HtaDepth {
public:
    explicit HtaDepth(const Trace& trace) : trace_(trace) {
        std::vector<int32_t> main_lanes, bwd_lanes;
        std::vector<char> step_lane(trace.lanes.size()), autograd_lane(trace.lanes.size());
        for (size_t i = 0; i < trace.events.size(); ++i) {
            const TraceEvent e = trace.events[i];
            if (trace.lanes[size_t(e.lane)].device) continue;
            const std::string& name = trace.nameOf(e);
            if (startsWith(name, "ProfilerStep#")) step_lane[size_t(e.lane)] = 1;
            if (startsWith(name, "autograd::")) autograd_lane[size_t(e.lane)] = 1;
        }
        for (size_t l = 0; l < trace.lanes.size(); ++l) {
            if (step_lane[l])
                main_lanes.push_back(int32_t(l));
            else if (autograd_lane[l])
                bwd_lanes.push_back(int32_t(l));
        }
        if (main_lanes.size() != 1 || bwd_lanes.size() != 1) return;
        bwd_lane_ = bwd_lanes[0];
        for (size_t i = 0; i < trace.events.size(); ++i) {
            const TraceEvent e = trace.events[i];
            if (e.lane != main_lanes[0]) continue;
            const std::string& name = trace.nameOf(e);
            if (name == "## backward ##") backward_.push_back(int32_t(i));
            if (startsWith(name, "ProfilerStep#")) steps_.push_back(int32_t(i));
        }
    }

    int64_t operator()(int32_t event) const {
        const TraceEvent e = trace_.events[size_t(event)];
        if (e.lane != bwd_lane_) return e.depth;
        int32_t top = event;
        while (trace_.events[size_t(top)].parent >= 0)
            top = trace_.events[size_t(top)].parent;
        const TraceEvent t = trace_.events[size_t(top)];
        for (const std::vector<int32_t>* around : {&backward_, &steps_})
            for (int32_t a : *around) {
                const TraceEvent r = trace_.events[size_t(a)];
                if (r.start_ns <= t.start_ns && t.end_ns() <= r.end_ns())
                    return e.depth + r.depth + 1;
            }
        return e.depth;
    }

private:
    const Trace& trace_;
    int32_t bwd_lane_ = -1;
    std::vector<int32_t> backward_, steps_;
};

// The call each device event belongs to (-1 none): the outermost candidate
// around its launch, or with hta_shallowest the one at HTA's shallowest depth.
std::vector<int32_t> rootsOf(const Trace& trace, const DeviceActivities& activity,
                             const SequenceOptions& options) {
    const Candidates candidate(trace, options);
    std::vector<int32_t> shallowest; // sorted, hta_shallowest only
    if (options.hta_shallowest) {
        const HtaDepth depth(trace);
        int64_t min_depth = INT64_MAX;
        std::vector<std::pair<int64_t, int32_t>> found;
        for (size_t i = 0; i < trace.events.size(); ++i) {
            if (!candidate(int32_t(i))) continue;
            if (activity.last_step_dropped && trace.events[i].start_ns >= activity.cutoff) continue;
            found.push_back({depth(int32_t(i)), int32_t(i)});
            min_depth = std::min(min_depth, found.back().first);
        }
        for (const auto& [d, e] : found)
            if (d == min_depth) shallowest.push_back(e);
    }
    std::vector<int32_t> roots(activity.events.size(), -1);
    for (size_t k = 0; k < activity.events.size(); ++k) {
        // Work only: HTA also lists the stream waits it finds linked, whose
        // order among equal start times its sort leaves to chance.
        if (!activity.events[k].work) continue;
        for (int32_t e = activity.events[k].launcher; e >= 0; e = trace.events[size_t(e)].parent)
            if (options.hta_shallowest ? std::binary_search(shallowest.begin(), shallowest.end(), e)
                                       : candidate(e))
                roots[k] = e; // the outermost wins: keep walking up
    }
    return roots;
}

struct Accumulated {
    KernelSequence sequence;
    int64_t longest_span = -1;
};

} // namespace

std::string KernelSequence::pattern() const {
    std::string out = op;
    for (const SequenceKernel& k : kernels)
        out += "|" + k.name;
    return out;
}

KernelSequences kernelSequences(const Trace& trace, const DeviceActivities& activity,
                                const SequenceOptions& options) {
    KernelSequences out;
    out.rank = activity.rank;
    out.options = options;
    const std::vector<int32_t> roots = rootsOf(trace, activity, options);
    std::map<int32_t, std::vector<size_t>> work_of; // call -> its device events
    for (size_t k = 0; k < roots.size(); ++k)
        if (roots[k] >= 0) work_of[roots[k]].push_back(k);
    out.calls = work_of.size();

    std::map<std::vector<uint32_t>, Accumulated> by_pattern; // (op, kernels...) names
    std::vector<uint32_t> key;
    for (auto& [call, work] : work_of) {
        if (work.size() < options.min_pattern_len) continue;
        std::sort(work.begin(), work.end(), [&](size_t a, size_t b) {
            const DeviceActivity &x = activity.events[a], &y = activity.events[b];
            return std::tie(x.start, x.lane, x.event) < std::tie(y.start, y.lane, y.event);
        });
        const TraceEvent op = trace.events[size_t(call)];
        key.assign(1, op.name);
        for (size_t k : work)
            key.push_back(trace.events[size_t(activity.events[k].event)].name);
        Accumulated& acc = by_pattern[key];
        KernelSequence& s = acc.sequence;
        if (s.count == 0) {
            s.op = trace.names[op.name];
            for (size_t i = 1; i < key.size(); ++i)
                s.kernels.push_back({trace.names[key[i]]});
        }
        ++s.count;
        s.cpu_ns += op.dur_ns;
        int64_t first = INT64_MAX, last = INT64_MIN;
        for (size_t i = 0; i < work.size(); ++i) {
            const DeviceActivity& d = activity.events[work[i]];
            const int64_t ns = std::max<int64_t>(d.end - d.start, 0);
            const int64_t delay = d.launch_end >= 0 ? d.start - d.launch_end : 0;
            s.kernels[i].total_ns += ns;
            s.kernels[i].delay_ns += delay;
            s.gpu_ns += ns;
            s.launch_delay_ns += delay;
            first = std::min(first, d.start);
            last = std::max(last, std::max(d.end, d.start));
        }
        s.first_delay_ns += first - op.start_ns;
        s.span_ns += last - first;
        if (last - first > acc.longest_span) {
            acc.longest_span = last - first;
            s.longest = call;
        }
    }
    for (auto& [k, acc] : by_pattern)
        out.sequences.push_back(std::move(acc.sequence));
    // HTA's order: the most frequent first, then by pattern.
    std::vector<std::pair<std::string, size_t>> order;
    for (size_t i = 0; i < out.sequences.size(); ++i)
        order.push_back({out.sequences[i].pattern(), i});
    std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
        const int64_t ca = out.sequences[a.second].count, cb = out.sequences[b.second].count;
        return ca != cb ? ca > cb : a.first < b.first;
    });
    std::vector<KernelSequence> sorted;
    for (const auto& [pattern, i] : order)
        sorted.push_back(std::move(out.sequences[i]));
    out.sequences = std::move(sorted);
    return out;
}

} // namespace ts
