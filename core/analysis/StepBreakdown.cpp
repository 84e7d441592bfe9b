#include "analysis/StepBreakdown.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

namespace ts {

namespace {

constexpr double kNsPerMs = 1e6;

// The PhaseTimes member a phase annotation adds to; nullptr for other names.
double* phaseSlot(const std::string& name, PhaseTimes& p) {
    std::string lower(name.size(), ' ');
    std::transform(name.begin(), name.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower == "data") return &p.data_ms;
    if (lower == "copy") return &p.copy_ms;
    if (lower == "forward") return &p.forward_ms;
    if (lower == "backward") return &p.backward_ms;
    if (lower == "optimizer" || lower.rfind("optimizer.", 0) == 0) return &p.optimizer_ms;
    return nullptr;
}

bool isPhase(const Trace& trace, const TraceEvent& e) {
    PhaseTimes scratch;
    return e.kind == EventKind::Annotation && phaseSlot(trace.nameOf(e), scratch) != nullptr;
}

// Nested phase ranges (a "copy" inside "data") count only once, as the outer.
bool insidePhase(const Trace& trace, const TraceEvent& e) {
    for (int32_t p = e.parent; p >= 0; p = trace.events[p].parent)
        if (isPhase(trace, trace.events[p])) return true;
    return false;
}

std::vector<StepMark> stepsOrWholeTrace(const Trace& trace) {
    if (!trace.steps.empty()) return trace.steps;
    if (trace.events.empty()) return {};
    StepMark all{-1, INT64_MAX, INT64_MIN};
    for (const TraceEvent& e : trace.events) {
        all.start_ns = std::min(all.start_ns, e.start_ns);
        all.end_ns = std::max(all.end_ns, e.end_ns());
    }
    return {all};
}

void finishStep(StepPhases& s) {
    PhaseTimes& p = s.phases;
    p.other_ms = std::max(
        0.0, s.step_ms - (p.data_ms + p.copy_ms + p.forward_ms + p.backward_ms + p.optimizer_ms));
}

StepPhases meanOf(const std::vector<StepPhases>& steps) {
    StepPhases m;
    if (steps.empty()) return m;
    const double n = static_cast<double>(steps.size());
    for (const StepPhases& s : steps) {
        m.step_ms += s.step_ms / n;
        m.phases.data_ms += s.phases.data_ms / n;
        m.phases.copy_ms += s.phases.copy_ms / n;
        m.phases.forward_ms += s.phases.forward_ms / n;
        m.phases.backward_ms += s.phases.backward_ms / n;
        m.phases.optimizer_ms += s.phases.optimizer_ms / n;
        m.phases.other_ms += s.phases.other_ms / n;
    }
    return m;
}

} // namespace

StepBreakdown computeStepBreakdown(const Trace& trace) {
    std::vector<StepMark> marks = stepsOrWholeTrace(trace);
    std::sort(marks.begin(), marks.end(),
              [](const StepMark& a, const StepMark& b) { return a.start_ns < b.start_ns; });
    StepBreakdown result;
    for (const StepMark& m : marks)
        result.steps.push_back(StepPhases{m.step, double(m.end_ns - m.start_ns) / kNsPerMs, {}});
    for (const TraceEvent& e : trace.events) {
        if (!isPhase(trace, e) || insidePhase(trace, e)) continue;
        auto it = std::upper_bound(marks.begin(), marks.end(), e.start_ns,
                                   [](int64_t t, const StepMark& s) { return t < s.start_ns; });
        if (it == marks.begin()) continue;
        const StepMark& mark = *(it - 1);
        if (e.start_ns >= mark.end_ns) continue;
        StepPhases& step = result.steps[static_cast<size_t>(it - 1 - marks.begin())];
        const int64_t end = std::min(e.end_ns(), mark.end_ns);
        *phaseSlot(trace.nameOf(e), step.phases) += double(end - e.start_ns) / kNsPerMs;
    }
    for (StepPhases& s : result.steps)
        finishStep(s);
    result.mean = meanOf(result.steps);
    return result;
}

StepBreakdown stepBreakdownFromRecords(const std::vector<StepRecord>& records) {
    StepBreakdown result;
    for (const StepRecord& r : records) {
        StepPhases s{r.global_step, r.step_ms, r.phases};
        finishStep(s);
        result.steps.push_back(s);
    }
    result.mean = meanOf(result.steps);
    return result;
}

nlohmann::json toJson(const StepBreakdown& breakdown) {
    auto phases = [](const StepPhases& s) {
        const PhaseTimes& p = s.phases;
        return nlohmann::json{{"step", s.step},
                              {"step_ms", s.step_ms},
                              {"data_ms", p.data_ms},
                              {"copy_ms", p.copy_ms},
                              {"forward_ms", p.forward_ms},
                              {"backward_ms", p.backward_ms},
                              {"optimizer_ms", p.optimizer_ms},
                              {"other_ms", p.other_ms}};
    };
    nlohmann::json steps = nlohmann::json::array();
    for (const StepPhases& s : breakdown.steps)
        steps.push_back(phases(s));
    nlohmann::json mean = phases(breakdown.mean);
    mean.erase("step");
    return {{"mean", std::move(mean)}, {"steps", std::move(steps)}};
}

} // namespace ts
