#include "trace/Trace.h"

#include <algorithm>
#include <climits>
#include <numeric>
#include <unordered_map>

#include "util/CountingSort.h"
#include "util/SortedRuns.h"

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

uint32_t Trace::internName(std::string_view name) {
    return static_cast<uint32_t>(name_index_.intern(names, name));
}

int32_t Trace::internString(std::string_view text) {
    return string_index_.intern(strings, text);
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

// Sorts [first, last) by `before` (a strict total order) when it is made of
// a few runs in order: adjacent runs merge pairwise, each merge only over
// where the two overlap (a binary search finds it; runs already in order cost
// nothing). A GPU trace's lanes are such: Kineto writes a thread or a stream
// in a few pieces per step, each in time order, and a full sort of lanes of
// millions was 6% of the read. A lane of many short runs (one in 16 events
// or more out of order) is sorted whole, as before.
template <typename It, typename Before>
void sortRuns(It first, It last, Before before, std::vector<size_t>& runs) {
    const auto n = static_cast<size_t>(last - first);
    runs.assign(1, 0);
    for (size_t i = 1; i < n; ++i) {
        if (!before(first[std::ptrdiff_t(i)], first[std::ptrdiff_t(i - 1)])) continue;
        runs.push_back(i);
        if (runs.size() > n / 16) return std::sort(first, last, before);
    }
    runs.push_back(n);
    const auto at = [first](size_t i) { return first + std::ptrdiff_t(i); };
    while (runs.size() > 2) {
        size_t kept = 0;
        size_t r = 0;
        for (; r + 2 < runs.size(); r += 2) {
            const It a = at(runs[r]), b = at(runs[r + 1]), c = at(runs[r + 2]);
            if (before(*b, *std::prev(b)))
                std::inplace_merge(std::upper_bound(a, b, *b, before), b,
                                   std::lower_bound(b, c, *std::prev(b), before), before);
            runs[kept++] = runs[r];
        }
        if (r + 1 < runs.size()) runs[kept++] = runs[r]; // an odd run out waits
        runs[kept++] = n;
        runs.resize(kept);
    }
}

// Positions by (lane, start, longest first, old position), so parents
// precede their children: a counting pass by lane, then a sort of each lane,
// skipped where the lane is already in order (Kineto writes CPU threads in
// order). Returns new position by old position.
std::vector<int32_t> sortedPositions(const EventStore& events, size_t lanes) {
    const size_t n = events.size();
    std::vector<size_t> lane_begin(lanes + 2, 0);
    for (size_t i = 0; i < n; ++i)
        ++lane_begin[size_t(events.core(i).lane) + 1];
    for (size_t l = 1; l < lane_begin.size(); ++l)
        lane_begin[l] += lane_begin[l - 1];
    std::vector<int32_t> order(n);
    {
        std::vector<size_t> next(lane_begin.begin(), lane_begin.end() - 1);
        for (size_t i = 0; i < n; ++i)
            order[next[events.core(i).lane]++] = static_cast<int32_t>(i);
    }
    auto before = [&](int32_t a, int32_t b) {
        const EventCore& x = events.core(size_t(a));
        const EventCore& y = events.core(size_t(b));
        if (x.start_ns != y.start_ns) return x.start_ns < y.start_ns;
        if (x.dur_ns != y.dur_ns) return x.dur_ns > y.dur_ns;
        return a < b;
    };
    std::vector<size_t> runs;
    for (size_t l = 0; l + 1 < lane_begin.size(); ++l) {
        auto first = order.begin() + static_cast<std::ptrdiff_t>(lane_begin[l]);
        auto last = order.begin() + static_cast<std::ptrdiff_t>(lane_begin[l + 1]);
        if (!std::is_sorted(first, last, before)) sortRuns(first, last, before, runs);
    }
    std::vector<int32_t> new_index(n);
    for (size_t i = 0; i < n; ++i)
        new_index[size_t(order[i])] = static_cast<int32_t>(i);
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
void computeNesting(EventStore& events) {
    std::vector<int32_t> open;
    int32_t lane = -1;
    for (size_t i = 0; i < events.size(); ++i) {
        const EventCore& e = events.core(i);
        if (e.lane != lane) {
            open.clear();
            lane = e.lane;
        }
        while (!open.empty()) {
            const EventCore& top = events.core(size_t(open.back()));
            if (e.start_ns < top.end_ns() || e.start_ns == top.start_ns) break;
            open.pop_back();
        }
        events.setNesting(i, open.empty() ? -1 : open.back(),
                          static_cast<int16_t>(std::min<size_t>(open.size(), INT16_MAX)));
        open.push_back(static_cast<int32_t>(i));
    }
}

// The latest candidate op by sequence number: a dense table when the
// numbers span a range not much larger than their count (PyTorch numbers
// each thread's autograd nodes from 0), a hash map otherwise.
class SeqCandidates {
public:
    SeqCandidates(int64_t min, int64_t max, size_t count) : min_(min) {
        const uint64_t span = uint64_t(max) - uint64_t(min) + 1;
        if (count > 0 && denseEnoughToCount(span, count)) dense_.assign(size_t(span), -1);
    }
    int32_t find(int64_t seq) const {
        if (!dense_.empty()) return dense_[size_t(seq - min_)];
        const auto it = sparse_.find(seq);
        return it == sparse_.end() ? -1 : it->second;
    }
    void set(int64_t seq, int32_t event) {
        if (!dense_.empty())
            dense_[size_t(seq - min_)] = event;
        else
            sparse_[seq] = event;
    }

private:
    int64_t min_;
    std::vector<int32_t> dense_;
    std::unordered_map<int64_t, int32_t> sparse_;
};

// Forward op <-> backward node by autograd sequence number. Several nested
// ops share one number (aten::conv2d > aten::convolution > ...) and ops that
// create no node repeat the current number, so the candidate for a number is
// the outermost op of the latest nest that carried it.
void linkBackward(EventStore& events) {
    struct Numbered {
        int32_t event;
        int64_t seq;
        bool forward;
    };
    std::vector<Numbered> by_time;
    std::vector<size_t> lane_runs; // where each lane's ops begin in by_time
    int64_t min_seq = INT64_MAX, max_seq = INT64_MIN;
    for (size_t i = 0; i < events.size(); ++i) {
        const EventKind kind = events.core(i).kind;
        if (kind != EventKind::Operator && kind != EventKind::Backward) continue;
        const int64_t seq = events.seq(i);
        if (seq < 0) continue;
        if (by_time.empty() ||
            events.core(size_t(by_time.back().event)).lane != events.core(i).lane)
            lane_runs.push_back(by_time.size());
        by_time.push_back({int32_t(i), seq, kind == EventKind::Operator});
        min_seq = std::min(min_seq, seq);
        max_seq = std::max(max_seq, seq);
    }
    // finalize sorted the events by lane, then start: each lane's run is in
    // time order already.
    mergeSortedRuns(by_time, lane_runs, [&](const Numbered& a, const Numbered& b) {
        return events.core(size_t(a.event)).start_ns < events.core(size_t(b.event)).start_ns;
    });
    SeqCandidates candidate(min_seq, max_seq, by_time.size());
    for (const Numbered& n : by_time) {
        const int32_t i = n.event;
        const EventCore& e = events.core(size_t(i));
        const int32_t found = candidate.find(n.seq);
        if (n.forward) {
            const bool nested = found >= 0 && events.core(size_t(found)).lane == e.lane &&
                                e.start_ns < events.core(size_t(found)).end_ns();
            if (!nested) candidate.set(n.seq, i);
            continue;
        }
        if (found < 0 || events.link(size_t(i)) >= 0) continue;
        events.setLink(size_t(i), found);
        // torch.profiler gives the engine's wrapper ("autograd::engine::
        // evaluate_function: X") the node's number too: the op links to the
        // innermost of them, the node itself.
        const int32_t forward_link = events.link(size_t(found));
        if (forward_link < 0 || (events.core(size_t(forward_link)).lane == e.lane &&
                                 e.start_ns < events.core(size_t(forward_link)).end_ns()))
            events.setLink(size_t(found), i);
    }
}

// Events without a step get the step whose time range holds their start:
// the last step that starts at or before it. Within a lane the events are in
// time order (finalize sorted them), so that step only moves forward: a scan
// per lane instead of a binary search per event.
void assignSteps(EventStore& events, const std::vector<StepMark>& steps) {
    if (steps.empty()) return;
    size_t next = 0; // steps[next] is the first step that starts after the last event seen
    int32_t lane = -1;
    int64_t last_start = INT64_MIN;
    for (size_t i = 0; i < events.size(); ++i) {
        const EventCore& e = events.core(i);
        if (e.lane != lane || e.start_ns < last_start) { // a new lane (or no order): from the top
            lane = e.lane;
            next = 0;
        }
        last_start = e.start_ns;
        const uint16_t code = e.step_code; // 0: step -1, 0xFFFF: any other
        if (code != 0 && (code != 0xFFFF || events.step(i) >= 0)) continue;
        while (next < steps.size() && steps[next].start_ns <= e.start_ns)
            ++next;
        if (next == 0) continue;
        const StepMark& step = steps[next - 1];
        if (e.start_ns < step.end_ns) events.setStep(i, step.step);
    }
}

} // namespace

void Trace::finalize() {
    finalize(nullptr);
}

void Trace::finalize(std::vector<int32_t>* new_index_out) {
    std::vector<int32_t> new_index = sortedPositions(events, lanes.size());
    events.permute(new_index);
    for (MemorySample& m : memory) {
        if (m.event >= 0) renumber(m.event, new_index);
    }
    std::vector<CollectiveTag>& tags = kineto.collective_tags;
    for (CollectiveTag& tag : tags)
        renumber(tag.event, new_index);
    // A tag of no event (a builder's mistake) would sort first and be found
    // by no lookup; it goes rather than be kept in the index.
    tags.erase(std::remove_if(tags.begin(), tags.end(),
                              [](const CollectiveTag& t) { return t.event < 0; }),
               tags.end());
    std::sort(tags.begin(), tags.end(),
              [](const CollectiveTag& a, const CollectiveTag& b) { return a.event < b.event; });
    computeNesting(events);
    linkBackward(events);
    std::stable_sort(memory.begin(), memory.end(),
                     [](const MemorySample& a, const MemorySample& b) { return a.t_ns < b.t_ns; });
    std::stable_sort(steps.begin(), steps.end(),
                     [](const StepMark& a, const StepMark& b) { return a.start_ns < b.start_ns; });
    assignSteps(events, steps);
    if (new_index_out) *new_index_out = std::move(new_index);
}

const CollectiveTag* Trace::collectiveTagOf(int32_t event) const {
    const std::vector<CollectiveTag>& tags = kineto.collective_tags;
    auto it = std::lower_bound(tags.begin(), tags.end(), event,
                               [](const CollectiveTag& t, int32_t e) { return t.event < e; });
    return it != tags.end() && it->event == event ? &*it : nullptr;
}

KinetoCategory Trace::categoryOf(int32_t event) const {
    return event >= 0 && static_cast<size_t>(event) < events.size() ? events.category(size_t(event))
                                                                    : KinetoCategory::None;
}

std::optional<EventIds> Trace::idsOf(int32_t event) const {
    if (event < 0 || static_cast<size_t>(event) >= events.size()) return std::nullopt;
    return events.ids(size_t(event));
}

std::optional<SyncWait> Trace::syncWaitOf(int32_t event) const {
    if (event < 0 || static_cast<size_t>(event) >= events.size()) return std::nullopt;
    return events.syncWait(size_t(event));
}

std::optional<DeviceLaunch> Trace::launchOf(int32_t event) const {
    if (event < 0 || static_cast<size_t>(event) >= events.size()) return std::nullopt;
    return events.launch(size_t(event));
}

const std::string& Trace::callStackOf(int32_t event) const {
    static const std::string kEmpty;
    if (event < 0 || static_cast<size_t>(event) >= events.size()) return kEmpty;
    return stringAt(events.callStack(size_t(event)));
}

bool Trace::hasKinetoInfo() const {
    return events.hasCategories() || events.hasLaunches() || !kineto.devices.empty();
}

} // namespace ts
