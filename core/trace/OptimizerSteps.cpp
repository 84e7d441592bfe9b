#include "trace/OptimizerSteps.h"

#include <algorithm>
#include <map>
#include <vector>

#include "trace/KinetoNames.h"

namespace ts {

namespace {

struct Range {
    int64_t start_ns = 0, end_ns = 0;
    uint32_t name = 0;
};

// The outermost ranges of one thread, in time order: an optimizer wrapping
// another (ZeroRedundancyOptimizer around AdamW) steps once.
std::vector<Range> outermost(std::vector<Range> ranges) {
    std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) {
        return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns > b.end_ns;
    });
    std::vector<Range> out;
    for (const Range& r : ranges)
        if (out.empty() || r.start_ns >= out.back().end_ns) out.push_back(r);
    return out;
}

// The Optimizer.step ranges of the CPU thread that has the most of them
// (the lowest lane of those that tie).
std::vector<Range> optimizerRanges(const Trace& trace) {
    std::vector<char> is_step(trace.names.size(), 0);
    bool any = false;
    for (size_t n = 0; n < trace.names.size(); ++n)
        if (isOptimizerStepName(trace.names[n])) is_step[n] = 1, any = true;
    if (!any) return {};
    std::map<uint16_t, std::vector<Range>> by_lane;
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const EventCore& e = trace.events.core(i);
        if (is_step[e.name] && !trace.lanes[e.lane].device)
            by_lane[e.lane].push_back(Range{e.start_ns, e.end_ns(), e.name});
    }
    std::vector<Range> best;
    for (auto& [lane, ranges] : by_lane) {
        std::vector<Range> kept = outermost(std::move(ranges));
        if (kept.size() > best.size()) best = std::move(kept);
    }
    return best;
}

} // namespace

void deriveOptimizerSteps(Trace& trace) {
    if (!trace.steps.empty()) return;
    const std::vector<Range> ranges = optimizerRanges(trace);
    if (ranges.size() < 2) return;
    for (size_t k = 1; k < ranges.size(); ++k)
        trace.steps.push_back(StepMark{int64_t(k - 1), ranges[k - 1].end_ns, ranges[k].end_ns});
    trace.steps_from = trace.names[ranges.front().name];
    trace.notes.push_back(derivedStepsText(trace));
}

std::string derivedStepsText(const Trace& trace) {
    if (trace.steps_from.empty() || trace.steps.empty()) return "";
    const std::string count = std::to_string(trace.steps.size());
    return "steps from the optimizer: the trace has no ProfilerStep#N, so each of its " + count +
           " steps runs from the end of one " + trace.steps_from +
           " range to the end of the next, numbered 0 to " +
           std::to_string(trace.steps.size() - 1) +
           " in trace order; the events before the first end and after the last are in no step";
}

} // namespace ts
