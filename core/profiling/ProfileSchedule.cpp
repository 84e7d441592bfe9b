#include "profiling/ProfileSchedule.h"

#include <algorithm>

namespace ts {

const char* toString(ProfileAction action) {
    switch (action) {
    case ProfileAction::None:
        return "none";
    case ProfileAction::Warmup:
        return "warmup";
    case ProfileAction::Record:
        return "record";
    case ProfileAction::RecordAndSave:
        return "record_and_save";
    }
    return "none";
}

ProfileSchedule::ProfileSchedule(const ProfileConfig& config) : enabled_(config.enabled) {
    if (config.one_step_after >= 0) {
        // One window: N warm-up steps (one of them collected and discarded,
        // like torch's warmup), then exactly one recorded step.
        const int64_t n = config.one_step_after;
        warmup_ = std::min<int64_t>(n, 1);
        skip_first_ = n - warmup_;
        active_ = 1;
        repeat_ = 1;
        return;
    }
    skip_first_ = std::max(0, config.skip_first);
    wait_ = std::max(0, config.wait);
    warmup_ = std::max(0, config.warmup);
    active_ = std::max(0, config.active);
    repeat_ = std::max(0, config.repeat);
}

ProfileAction ProfileSchedule::at(int64_t index) const {
    if (!enabled_ || active_ <= 0 || index < skip_first_) return ProfileAction::None;
    const int64_t step = index - skip_first_;
    const int64_t cycle = wait_ + warmup_ + active_;
    if (repeat_ > 0 && step / cycle >= repeat_) return ProfileAction::None;
    const int64_t pos = step % cycle;
    if (pos < wait_) return ProfileAction::None;
    if (pos < wait_ + warmup_) return ProfileAction::Warmup;
    return pos == cycle - 1 ? ProfileAction::RecordAndSave : ProfileAction::Record;
}

int ProfileSchedule::windowOf(int64_t index) const {
    const ProfileAction action = at(index);
    if (action != ProfileAction::Record && action != ProfileAction::RecordAndSave) return -1;
    return static_cast<int>((index - skip_first_) / (wait_ + warmup_ + active_));
}

int64_t ProfileSchedule::activeSteps() const {
    return active_;
}

} // namespace ts
