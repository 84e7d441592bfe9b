#include "trace/Trace.h"

#include <algorithm>
#include <numeric>

namespace ts {

const char* toString(EventKind kind) {
    switch (kind) {
    case EventKind::Operator:
        return "operator";
    case EventKind::Backward:
        return "backward";
    case EventKind::Annotation:
        return "annotation";
    case EventKind::Kernel:
        return "kernel";
    case EventKind::Memcpy:
        return "memcpy";
    case EventKind::Other:
        return "other";
    case EventKind::Runtime:
        return "runtime";
    case EventKind::Memset:
        return "memset";
    case EventKind::Communication:
        return "communication";
    case EventKind::DataLoader:
        return "dataloader";
    case EventKind::ProfilerStep:
        return "profiler_step";
    case EventKind::ProfilerRange:
        return "profiler_range";
    case EventKind::Python:
        return "python";
    }
    return "other";
}

EventKind eventKindFromString(const std::string& text) {
    for (EventKind kind : {EventKind::Operator, EventKind::Backward, EventKind::Annotation,
                           EventKind::Kernel, EventKind::Memcpy, EventKind::Runtime,
                           EventKind::Memset, EventKind::Communication, EventKind::DataLoader,
                           EventKind::ProfilerStep, EventKind::ProfilerRange, EventKind::Python}) {
        if (text == toString(kind)) return kind;
    }
    return EventKind::Other;
}

bool isAutogradEventName(const std::string& name) {
    if (name.rfind("autograd::", 0) == 0 || name.rfind("torch::autograd::", 0) == 0) return true;
    // Autograd nodes are named <Op>Backward<N> (ConvolutionBackward0, ...).
    size_t end = name.size();
    while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9')
        --end;
    static const std::string kSuffix = "Backward";
    return end >= kSuffix.size() &&
           name.compare(end - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
}

uint32_t Trace::internName(const std::string& name) {
    // The index is rebuilt when names were filled in directly (or copied).
    if (name_index_.size() != names.size()) {
        name_index_.clear();
        for (uint32_t i = 0; i < names.size(); ++i)
            name_index_.emplace(names[i], i);
    }
    auto [it, added] = name_index_.emplace(name, static_cast<uint32_t>(names.size()));
    if (added) names.push_back(name);
    return it->second;
}

int32_t Trace::internString(const std::string& text) {
    if (string_index_.size() != strings.size()) {
        string_index_.clear();
        for (size_t i = 0; i < strings.size(); ++i)
            string_index_.emplace(strings[i], static_cast<int32_t>(i));
    }
    auto [it, added] = string_index_.emplace(text, static_cast<int32_t>(strings.size()));
    if (added) strings.push_back(text);
    return it->second;
}

const std::string& Trace::stringAt(int32_t index) const {
    static const std::string kEmpty;
    if (index < 0 || static_cast<size_t>(index) >= strings.size()) return kEmpty;
    return strings[index];
}

const std::string& Trace::shapesOf(const TraceEvent& e) const {
    return stringAt(e.shapes);
}

int32_t Trace::laneFor(int64_t tid, bool device, const std::string& name) {
    if (lane_index_.size() != lanes.size()) {
        lane_index_.clear();
        for (size_t i = 0; i < lanes.size(); ++i)
            lane_index_.emplace(lanes[i].tid * 2 + (lanes[i].device ? 1 : 0),
                                static_cast<int32_t>(i));
    }
    auto [it, added] =
        lane_index_.emplace(tid * 2 + (device ? 1 : 0), static_cast<int32_t>(lanes.size()));
    if (added) lanes.push_back(TraceLane{name, tid, device});
    return it->second;
}

namespace {

// Reorders events by (lane, start, longest first) so parents precede their
// children; returns new position by old position.
std::vector<int32_t> sortEvents(std::vector<TraceEvent>& events) {
    std::vector<int32_t> order(events.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        const TraceEvent& x = events[a];
        const TraceEvent& y = events[b];
        if (x.lane != y.lane) return x.lane < y.lane;
        if (x.start_ns != y.start_ns) return x.start_ns < y.start_ns;
        return x.dur_ns > y.dur_ns;
    });
    std::vector<TraceEvent> sorted;
    sorted.reserve(events.size());
    std::vector<int32_t> new_index(events.size());
    for (size_t i = 0; i < order.size(); ++i) {
        sorted.push_back(events[order[i]]);
        new_index[order[i]] = static_cast<int32_t>(i);
    }
    events.swap(sorted);
    return new_index;
}

void renumber(int32_t& index, const std::vector<int32_t>& new_index) {
    if (index >= 0 && static_cast<size_t>(index) < new_index.size())
        index = new_index[index];
    else
        index = -1;
}

// Parent = innermost enclosing event on the same lane. An event that starts
// before its parent ends is taken as nested even if it ends a little later:
// microsecond rounding in imported traces produces such overhangs.
void computeNesting(std::vector<TraceEvent>& events) {
    std::vector<int32_t> open;
    int32_t lane = -1;
    for (size_t i = 0; i < events.size(); ++i) {
        TraceEvent& e = events[i];
        if (e.lane != lane) {
            open.clear();
            lane = e.lane;
        }
        while (!open.empty()) {
            const TraceEvent& top = events[open.back()];
            if (e.start_ns < top.end_ns() || e.start_ns == top.start_ns) break;
            open.pop_back();
        }
        e.parent = open.empty() ? -1 : open.back();
        e.depth = static_cast<int16_t>(std::min<size_t>(open.size(), INT16_MAX));
        open.push_back(static_cast<int32_t>(i));
    }
}

bool isForwardOp(const TraceEvent& e) {
    return e.kind == EventKind::Operator && e.seq >= 0;
}
bool isBackwardNode(const TraceEvent& e) {
    return e.kind == EventKind::Backward && e.seq >= 0;
}

// Forward op <-> backward node by autograd sequence number. Several nested
// ops share one number (aten::conv2d > aten::convolution > ...) and ops that
// create no node repeat the current number, so the candidate for a number is
// the outermost op of the latest nest that carried it.
void linkBackward(std::vector<TraceEvent>& events) {
    std::vector<int32_t> by_time;
    for (size_t i = 0; i < events.size(); ++i) {
        if (isForwardOp(events[i]) || isBackwardNode(events[i]))
            by_time.push_back(static_cast<int32_t>(i));
    }
    std::stable_sort(by_time.begin(), by_time.end(),
                     [&](int32_t a, int32_t b) { return events[a].start_ns < events[b].start_ns; });
    std::unordered_map<int64_t, int32_t> candidate;
    for (int32_t i : by_time) {
        TraceEvent& e = events[i];
        if (isForwardOp(e)) {
            auto it = candidate.find(e.seq);
            const bool nested = it != candidate.end() && events[it->second].lane == e.lane &&
                                e.start_ns < events[it->second].end_ns();
            if (!nested) candidate[e.seq] = i;
            continue;
        }
        auto it = candidate.find(e.seq);
        if (it == candidate.end() || e.link >= 0) continue;
        e.link = it->second;
        // torch.profiler gives the engine's wrapper ("autograd::engine::
        // evaluate_function: X") the node's number too: the op links to the
        // innermost of them, the node itself.
        int32_t& forward_link = events[it->second].link;
        if (forward_link < 0 ||
            (events[forward_link].lane == e.lane && e.start_ns < events[forward_link].end_ns()))
            forward_link = i;
    }
}

// Events without a step get the step whose time range holds their start.
void assignSteps(std::vector<TraceEvent>& events, const std::vector<StepMark>& steps) {
    if (steps.empty()) return;
    for (TraceEvent& e : events) {
        if (e.step >= 0) continue;
        auto it = std::upper_bound(steps.begin(), steps.end(), e.start_ns,
                                   [](int64_t t, const StepMark& s) { return t < s.start_ns; });
        if (it == steps.begin()) continue;
        --it;
        if (e.start_ns < it->end_ns) e.step = it->step;
    }
}

} // namespace

void Trace::finalize() {
    finalize(nullptr);
}

void Trace::finalize(std::vector<int32_t>* new_index_out) {
    std::vector<int32_t> new_index = sortEvents(events);
    for (TraceEvent& e : events) {
        if (e.link >= 0) renumber(e.link, new_index);
    }
    for (MemorySample& m : memory) {
        if (m.event >= 0) renumber(m.event, new_index);
    }
    kineto.remap(new_index);
    computeNesting(events);
    linkBackward(events);
    std::stable_sort(memory.begin(), memory.end(),
                     [](const MemorySample& a, const MemorySample& b) { return a.t_ns < b.t_ns; });
    std::stable_sort(steps.begin(), steps.end(),
                     [](const StepMark& a, const StepMark& b) { return a.start_ns < b.start_ns; });
    assignSteps(events, steps);
    if (new_index_out) *new_index_out = std::move(new_index);
}

} // namespace ts
