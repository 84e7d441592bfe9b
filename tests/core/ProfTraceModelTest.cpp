// Trace model: interning, sort order, nesting, forward/backward links.
#include <gtest/gtest.h>

#include "ProfTestSupport.h"
#include "trace/Trace.h"

namespace ts {
namespace {

using test::addEvent;
using test::findEvent;

TEST(ProfTraceModel, InterningReturnsStableIndices) {
    Trace t;
    EXPECT_EQ(t.internName("aten::mm"), 0u);
    EXPECT_EQ(t.internName("aten::add"), 1u);
    EXPECT_EQ(t.internName("aten::mm"), 0u);
    EXPECT_EQ(t.internString("[[1]]"), 0);
    EXPECT_EQ(t.internString("[[1]]"), 0);
    EXPECT_EQ(t.stringAt(-1), "");
    // Names filled in directly (or a copied trace) are found too.
    Trace copy = t;
    copy.names.push_back("direct");
    EXPECT_EQ(copy.internName("direct"), 2u);
    EXPECT_EQ(copy.internName("aten::add"), 1u);
}

TEST(ProfTraceModel, FinalizeSortsByLaneAndStartAndNestsByStack) {
    Trace t;
    addEvent(t, "child2", EventKind::Operator, 60, 20);
    addEvent(t, "other_lane", EventKind::Operator, 5, 10, 1);
    addEvent(t, "grandchild", EventKind::Operator, 15, 5);
    addEvent(t, "parent", EventKind::Operator, 0, 100);
    addEvent(t, "child1", EventKind::Operator, 10, 30);
    addEvent(t, "after", EventKind::Operator, 100, 10); // starts as parent ends: a sibling
    t.finalize();
    std::vector<std::string> order;
    for (const TraceEvent& e : t.events)
        order.push_back(t.nameOf(e));
    EXPECT_EQ(order, (std::vector<std::string>{"parent", "child1", "grandchild", "child2", "after",
                                               "other_lane"}));
    const auto parent = findEvent(t, "parent");
    EXPECT_EQ(t.events[parent].parent, -1);
    EXPECT_EQ(t.events[findEvent(t, "child1")].parent, parent);
    EXPECT_EQ(t.events[findEvent(t, "grandchild")].parent, findEvent(t, "child1"));
    EXPECT_EQ(t.events[findEvent(t, "grandchild")].depth, 2);
    EXPECT_EQ(t.events[findEvent(t, "child2")].parent, parent);
    EXPECT_EQ(t.events[findEvent(t, "after")].parent, -1);
    EXPECT_EQ(t.events[findEvent(t, "other_lane")].parent, -1);
}

TEST(ProfTraceModel, BackwardNodeLinksToOutermostLatestForwardOpWithItsSequenceNumber) {
    Trace t;
    // aten::zeros carries the current number without creating a node; the
    // conv nest that follows carries it too and creates ConvolutionBackward0.
    addEvent(t, "aten::zeros", EventKind::Operator, 0, 10, 0, 7);
    addEvent(t, "aten::conv2d", EventKind::Operator, 20, 100, 0, 7);
    addEvent(t, "aten::convolution", EventKind::Operator, 25, 90, 0, 7);
    addEvent(t, "autograd::engine::evaluate_function: ConvolutionBackward0", EventKind::Backward,
             500, 60, 1, 7);
    addEvent(t, "ConvolutionBackward0", EventKind::Backward, 505, 50, 1, 7);
    addEvent(t, "aten::relu", EventKind::Operator, 130, 10, 0, 8); // no node: stays unlinked
    t.finalize();
    const auto conv2d = findEvent(t, "aten::conv2d");
    const auto node = findEvent(t, "ConvolutionBackward0");
    EXPECT_EQ(t.events[node].link, conv2d);
    EXPECT_EQ(t.events[conv2d].link, node); // the node, not the engine's wrapper
    EXPECT_EQ(t.events[findEvent(t, "aten::convolution")].link, -1);
    EXPECT_EQ(t.events[findEvent(t, "aten::zeros")].link, -1);
    EXPECT_EQ(t.events[findEvent(t, "aten::relu")].link, -1);
}

// Links follow time across lanes, not lane order: the forward op on lane 2
// comes after the backward node's lane in the sorted events, yet it ran
// earlier than the node and later than the op on lane 0, so it is the one
// linked. The same with sequence numbers too far apart for a dense table.
TEST(ProfTraceModel, BackwardLinksFollowTimeAcrossLanesWhateverTheNumbers) {
    for (const int64_t scale : {int64_t(1), int64_t(1000000000000)}) {
        Trace t;
        addEvent(t, "early_op", EventKind::Operator, 0, 10, 0, 5 * scale);
        addEvent(t, "node", EventKind::Backward, 100, 10, 1, 5 * scale);
        addEvent(t, "late_op", EventKind::Operator, 50, 10, 2, 5 * scale);
        addEvent(t, "other_op", EventKind::Operator, 20, 10, 4, 9 * scale);
        addEvent(t, "other_node", EventKind::Backward, 40, 10, 3, 9 * scale);
        addEvent(t, "unmatched_node", EventKind::Backward, 5, 10, 3, 7 * scale);
        t.finalize();
        SCOPED_TRACE("scale " + std::to_string(scale));
        EXPECT_EQ(t.events[findEvent(t, "node")].link, findEvent(t, "late_op"));
        EXPECT_EQ(t.events[findEvent(t, "late_op")].link, findEvent(t, "node"));
        EXPECT_EQ(t.events[findEvent(t, "early_op")].link, -1);
        EXPECT_EQ(t.events[findEvent(t, "other_node")].link, findEvent(t, "other_op"));
        EXPECT_EQ(t.events[findEvent(t, "unmatched_node")].link, -1);
    }
}

// Steps by start time on every lane: each lane's events are matched from the
// first step again, whatever the lane before them reached.
TEST(ProfTraceModel, StepsAreAssignedOnEveryLaneFromTheFirstStep) {
    Trace t;
    addEvent(t, "lane0_late", EventKind::Operator, 150, 10, 0);
    addEvent(t, "lane0_gap", EventKind::Operator, 260, 10, 0);
    addEvent(t, "lane1_early", EventKind::Operator, 50, 10, 1);
    addEvent(t, "lane1_before", EventKind::Operator, -5, 10, 1);
    addEvent(t, "lane1_late", EventKind::Operator, 199, 10, 1);
    t.steps.push_back(StepMark{2, 100, 200});
    t.steps.push_back(StepMark{1, 0, 100});
    t.steps.push_back(StepMark{3, 300, 400});
    t.finalize();
    EXPECT_EQ(t.events[findEvent(t, "lane0_late")].step, 2);
    EXPECT_EQ(t.events[findEvent(t, "lane0_gap")].step, -1); // between steps 2 and 3
    EXPECT_EQ(t.events[findEvent(t, "lane1_before")].step, -1);
    EXPECT_EQ(t.events[findEvent(t, "lane1_early")].step, 1);
    EXPECT_EQ(t.events[findEvent(t, "lane1_late")].step, 2);
}

TEST(ProfTraceModel, FinalizeRenumbersMemorySamplesAndExistingLinksAndAssignsSteps) {
    Trace t;
    const auto late = addEvent(t, "late", EventKind::Operator, 300, 10);
    const auto early = addEvent(t, "early", EventKind::Operator, 100, 10);
    t.events.setLink(size_t(early), late);
    t.memory.push_back(MemorySample{305, 64, 64, late});
    t.memory.push_back(MemorySample{105, 32, 32, early});
    t.steps.push_back(StepMark{4, 250, 400});
    t.steps.push_back(StepMark{3, 50, 200});
    std::vector<int32_t> new_index;
    t.finalize(&new_index);
    EXPECT_EQ(new_index[late], 1);
    EXPECT_EQ(new_index[early], 0);
    EXPECT_EQ(t.events[0].link, 1);
    ASSERT_EQ(t.memory.size(), 2u);
    EXPECT_EQ(t.memory[0].t_ns, 105);
    EXPECT_EQ(t.memory[0].event, 0);
    EXPECT_EQ(t.memory[1].event, 1);
    EXPECT_EQ(t.steps[0].step, 3);
    EXPECT_EQ(t.events[0].step, 3);
    EXPECT_EQ(t.events[1].step, 4);
}

TEST(ProfTraceModel, AutogradNamesAreRecognized) {
    EXPECT_TRUE(isAutogradEventName("ConvolutionBackward0"));
    EXPECT_TRUE(isAutogradEventName("MaxPool2DWithIndicesBackward12"));
    EXPECT_TRUE(isAutogradEventName("autograd::engine::evaluate_function: AddmmBackward0"));
    EXPECT_TRUE(isAutogradEventName("torch::autograd::AccumulateGrad"));
    EXPECT_FALSE(isAutogradEventName("aten::convolution_backward"));
    EXPECT_FALSE(isAutogradEventName("backward"));
    EXPECT_EQ(eventKindFromString(toString(EventKind::Kernel)), EventKind::Kernel);
    EXPECT_EQ(eventKindFromString("bogus"), EventKind::Other);
}

} // namespace
} // namespace ts
