// Step-time breakdown from phase annotations and from StepRecords.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ProfTestSupport.h"
#include "analysis/StepBreakdown.h"

namespace ts {
namespace {

using test::addEvent;

constexpr int64_t kMs = 1000000;

TEST(OpStatsBreakdown, PhasesPerStepAddUpToTheStep) {
    Trace t;
    t.steps.push_back(StepMark{7, 0, 100 * kMs});
    t.steps.push_back(StepMark{8, 100 * kMs, 150 * kMs});
    addEvent(t, "data", EventKind::Annotation, 0, 10 * kMs);
    addEvent(t, "copy", EventKind::Annotation, 2 * kMs, 3 * kMs); // inside data: counted once
    addEvent(t, "forward", EventKind::Annotation, 10 * kMs, 30 * kMs);
    addEvent(t, "aten::conv2d", EventKind::Operator, 11 * kMs, 20 * kMs);
    addEvent(t, "backward", EventKind::Annotation, 40 * kMs, 40 * kMs);
    addEvent(t, "Optimizer.step#SGD.step", EventKind::Annotation, 85 * kMs, 10 * kMs);
    addEvent(t, "FORWARD", EventKind::Annotation, 100 * kMs, 20 * kMs);
    t.finalize();
    const StepBreakdown b = computeStepBreakdown(t);
    ASSERT_EQ(b.steps.size(), 2u);
    const StepPhases& s = b.steps[0];
    EXPECT_EQ(s.step, 7);
    EXPECT_DOUBLE_EQ(s.step_ms, 100);
    EXPECT_DOUBLE_EQ(s.phases.data_ms, 10);
    EXPECT_DOUBLE_EQ(s.phases.copy_ms, 0);
    EXPECT_DOUBLE_EQ(s.phases.forward_ms, 30);
    EXPECT_DOUBLE_EQ(s.phases.backward_ms, 40);
    EXPECT_DOUBLE_EQ(s.phases.optimizer_ms, 10);
    EXPECT_DOUBLE_EQ(s.phases.other_ms, 10);
    EXPECT_DOUBLE_EQ(s.phases.total(), s.step_ms);
    EXPECT_DOUBLE_EQ(b.steps[1].phases.forward_ms, 20);
    EXPECT_DOUBLE_EQ(b.steps[1].phases.other_ms, 30);
    EXPECT_DOUBLE_EQ(b.mean.step_ms, 75);
    EXPECT_DOUBLE_EQ(b.mean.phases.forward_ms, 25);
    const nlohmann::json j = toJson(b);
    EXPECT_DOUBLE_EQ(j["mean"]["other_ms"].get<double>(), 20);
    EXPECT_EQ(j["steps"][1]["step"], 8);
}

TEST(OpStatsBreakdown, TraceWithoutStepsIsOneStep) {
    Trace t;
    addEvent(t, "forward", EventKind::Annotation, 5 * kMs, 10 * kMs);
    addEvent(t, "backward", EventKind::Annotation, 15 * kMs, 5 * kMs);
    addEvent(t, "aten::add", EventKind::Operator, 21 * kMs, 4 * kMs);
    t.finalize();
    const StepBreakdown b = computeStepBreakdown(t);
    ASSERT_EQ(b.steps.size(), 1u);
    EXPECT_DOUBLE_EQ(b.steps[0].step_ms, 20);
    EXPECT_DOUBLE_EQ(b.steps[0].phases.other_ms, 5);
    EXPECT_TRUE(computeStepBreakdown(Trace{}).steps.empty());
}

TEST(OpStatsBreakdown, FromStepRecords) {
    StepRecord r;
    r.global_step = 3;
    r.step_ms = 50;
    r.phases.data_ms = 5;
    r.phases.forward_ms = 20;
    r.phases.backward_ms = 20;
    r.phases.optimizer_ms = 4;
    const StepBreakdown b = stepBreakdownFromRecords({r, r});
    ASSERT_EQ(b.steps.size(), 2u);
    EXPECT_DOUBLE_EQ(b.steps[0].phases.other_ms, 1);
    EXPECT_DOUBLE_EQ(b.mean.phases.total(), 50);
}

} // namespace
} // namespace ts
