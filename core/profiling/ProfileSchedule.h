#pragma once
// torch.profiler.schedule() semantics for Trainscope's ProfileConfig: which
// steps are skipped, warmed up (collected, then discarded) or recorded, and
// which recorded step closes a window.
#include <cstdint>

#include "config/ExperimentConfig.h"

namespace ts {

enum class ProfileAction { None, Warmup, Record, RecordAndSave };
const char* toString(ProfileAction action);

class ProfileSchedule {
public:
    explicit ProfileSchedule(const ProfileConfig& config);
    // `index` counts steps from the start of the session (0-based).
    ProfileAction at(int64_t index) const;
    // Window that step `index` belongs to (0-based), -1 outside windows.
    int windowOf(int64_t index) const;
    int64_t activeSteps() const; // recorded steps per window

private:
    bool enabled_ = false;
    int64_t skip_first_ = 0, wait_ = 0, warmup_ = 0, active_ = 0, repeat_ = 0;
};

} // namespace ts
