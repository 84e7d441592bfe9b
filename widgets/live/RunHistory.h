#pragma once
// Everything the Live view has received for the run it shows (live or loaded
// from disk), with look-ups by chart key for hover read-outs.
#include <map>
#include <optional>
#include <vector>

#include "records/Records.h"

namespace ts::gui {

struct RunHistory {
    std::optional<RunInfo> info;
    std::vector<StepRecord> steps; // in arrival order = ascending global_step
    std::vector<EpochRecord> epochs;
    // A data-parallel job's ranks, each with its own steps (ascending global_step).
    std::map<int, std::vector<StepRecord>> rank_steps;

    // The step whose global_step is nearest to `key` (nullptr when empty).
    const StepRecord* stepNear(double key) const;
    // Epoch chart keys are 1-based epoch numbers.
    const EpochRecord* epochNear(double key) const;
    // Global step of the last step of `epoch` (where its validation result is drawn).
    double lastStepOfEpoch(int epoch) const;
    void clear() { *this = RunHistory(); }
};

} // namespace ts::gui
