// ProfileSchedule: torch.profiler.schedule() semantics and one_step_after.
#include <gtest/gtest.h>

#include <string>

#include "profiling/ProfileSchedule.h"

namespace ts {
namespace {

// One letter per step: n(one), w(armup), r(ecord), s(ave: record and close).
std::string actions(const ProfileConfig& c, int steps) {
    ProfileSchedule schedule(c);
    std::string out;
    for (int i = 0; i < steps; ++i) {
        switch (schedule.at(i)) {
        case ProfileAction::None:
            out += 'n';
            break;
        case ProfileAction::Warmup:
            out += 'w';
            break;
        case ProfileAction::Record:
            out += 'r';
            break;
        case ProfileAction::RecordAndSave:
            out += 's';
            break;
        }
    }
    return out;
}

ProfileConfig config(int skip_first, int wait, int warmup, int active, int repeat) {
    ProfileConfig c;
    c.enabled = true;
    c.skip_first = skip_first;
    c.wait = wait;
    c.warmup = warmup;
    c.active = active;
    c.repeat = repeat;
    return c;
}

TEST(ProfSchedule, FollowsTorchProfilerSchedule) {
    EXPECT_EQ(actions(config(1, 1, 1, 2, 2), 14), "nnwrsnwrsnnnnn");
    EXPECT_EQ(actions(config(0, 0, 2, 3, 1), 8), "wwrrsnnn");
    EXPECT_EQ(actions(config(0, 0, 0, 1, 0), 4), "ssss"); // repeat 0: until the run ends
    EXPECT_EQ(actions(config(2, 0, 0, 2, 1), 6), "nnrsnn");
}

TEST(ProfSchedule, WindowIndexCountsCycles) {
    ProfileSchedule s(config(1, 1, 1, 2, 2));
    EXPECT_EQ(s.windowOf(0), -1);
    EXPECT_EQ(s.windowOf(3), 0);
    EXPECT_EQ(s.windowOf(4), 0);
    EXPECT_EQ(s.windowOf(7), 1);
    EXPECT_EQ(s.activeSteps(), 2);
}

TEST(ProfSchedule, OneStepAfterWarmupSteps) {
    ProfileConfig c = config(0, 0, 2, 3, 1);
    c.one_step_after = 3;
    EXPECT_EQ(actions(c, 7), "nnwsnnn");
    c.one_step_after = 0;
    EXPECT_EQ(actions(c, 3), "snn");
}

TEST(ProfSchedule, DisabledOrEmptyScheduleRecordsNothing) {
    ProfileConfig c = config(0, 0, 1, 2, 1);
    c.enabled = false;
    EXPECT_EQ(actions(c, 5), "nnnnn");
    EXPECT_EQ(actions(config(0, 1, 1, 0, 1), 5), "nnnnn");
}

TEST(ProfSchedule, ActionNames) {
    EXPECT_STREQ(toString(ProfileAction::RecordAndSave), "record_and_save");
    EXPECT_STREQ(toString(ProfileAction::Warmup), "warmup");
}

} // namespace
} // namespace ts
