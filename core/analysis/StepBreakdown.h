#pragma once
// Step time split into data, copy, forward, backward, optimizer and other,
// adding up to the step: from a trace's phase annotations within its step
// markers, or from the engine's StepRecords.
#include <cstdint>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "records/Records.h"
#include "trace/Trace.h"

namespace ts {

struct StepPhases {
    int64_t step = -1;
    double step_ms = 0;
    PhaseTimes phases; // other_ms = step_ms minus the named phases
};

struct StepBreakdown {
    std::vector<StepPhases> steps;
    StepPhases mean; // over the steps (step = -1)
};

// Phases are top-level annotations named data, copy, forward, backward or
// optimizer (any case; "Optimizer.step#..." and "Optimizer.zero_grad#..." from
// Python count as optimizer). A trace without step markers counts as one step
// spanning all its events.
StepBreakdown computeStepBreakdown(const Trace& trace);
StepBreakdown stepBreakdownFromRecords(const std::vector<StepRecord>& records);
nlohmann::json toJson(const StepBreakdown& breakdown);

} // namespace ts
