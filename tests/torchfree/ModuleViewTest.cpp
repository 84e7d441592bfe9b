// The Modules view against torch.profiler's TensorBoard plugin: its module
// test (pytorch/kineto tb_plugin/test/test_profiler.py at 041e7ce:
// TestModuleView.test_build_module_hierarchy) with the plugin's asserted
// names and the module statistics its code computes for that fixture
// (/work/research/tb_plugin_tests.md, section G), plus a fixture of ours
// with kernels under nested modules for the device times.
//
// Deliberate differences, checked below:
// - times are ns (the plugin's are us): the plugin's 633 is 633000 here;
// - a module's statistics belong to its place in the tree, not to its
//   (name, id) pair wherever it appears: a module instance called from two
//   parents shows each parent's calls under that parent (the plugin shows
//   the sum under both). The two agree whenever an instance has one parent,
//   as in every fixture here;
// - backward modules ("Module.backward" from fwdbwd flows) are not built.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "TestPaths.h"
#include "analysis/ModuleView.h"
#include "report/ModuleReport.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

using json = nlohmann::json;

std::string dataFile(const std::string& name) {
    return std::string(TRAINSCOPE_TEST_DATA_DIR) + "/" + name;
}

const ModuleView& pluginView() {
    static const ModuleView view = computeModuleView(
        readChromeTraceFile(dataFile("tb_plugin/test_build_module_hierarchy.json")));
    return view;
}

const ModuleView& deviceView() {
    static const ModuleView view =
        computeModuleView(readChromeTraceFile(dataFile("module_view_device.json")));
    return view;
}

// The plugin's module_stats row, times in us.
void expectPluginRow(const ModuleRow& row, const std::string& name, int64_t id, int64_t occurrences,
                     int64_t operators, int64_t host, int64_t self_host, int64_t device,
                     int64_t self_device, double avg) {
    SCOPED_TRACE(name);
    EXPECT_EQ(row.name, name);
    EXPECT_EQ(row.module_id, id);
    EXPECT_EQ(row.occurrences, occurrences);
    EXPECT_EQ(row.operators, operators);
    EXPECT_EQ(row.host_total_ns, host * 1000);
    EXPECT_EQ(row.host_self_ns, self_host * 1000);
    EXPECT_EQ(row.device_total_ns, device * 1000);
    EXPECT_EQ(row.device_self_ns, self_device * 1000);
    EXPECT_DOUBLE_EQ(row.avgNs(), avg * 1000);
}

// L2679-L2683 and L2694-L2698: two roots, Conv2 and MyModule (sorted by
// name, "nn.Module: " removed), MyModule with the one child Linear.
TEST(ModuleViewPlugin, BuildModuleHierarchyAssertions) {
    const ModuleView& v = pluginView();
    EXPECT_TRUE(v.reason.empty());
    ASSERT_EQ(v.roots.size(), 2u);
    EXPECT_EQ(v.roots[0].name, "Conv2");
    EXPECT_EQ(v.roots[1].name, "MyModule");
    ASSERT_EQ(v.roots[1].children.size(), 1u);
    EXPECT_EQ(v.roots[1].children[0].name, "Linear");
    EXPECT_TRUE(v.roots[0].children.empty());
    EXPECT_TRUE(v.roots[1].children[0].children.empty());
}

// The plugin's observed module_stats for the fixture, every number.
TEST(ModuleViewPlugin, BuildModuleHierarchyStatistics) {
    const ModuleView& v = pluginView();
    ASSERT_EQ(v.roots.size(), 2u);
    expectPluginRow(v.roots[0], "Conv2", 100, 1, 0, 211, 211, 0, 0, 211.0);
    expectPluginRow(v.roots[1], "MyModule", 0, 3, 0, 633, 447, 0, 0, 211.0);
    ASSERT_EQ(v.roots[1].children.size(), 1u);
    expectPluginRow(v.roots[1].children[0], "Linear", 1, 3, 3, 186, 90, 0, 0, 62.0);
}

// Each call's range, for selecting it on the timeline (relative to the
// trace's origin, the first operator at 10 us; the module frames are
// outside the events so they may start before it).
TEST(ModuleViewPlugin, CallsAreTimeRanges) {
    const ModuleRow& linear = pluginView().roots[1].children[0];
    ASSERT_EQ(linear.calls.size(), 3u);
    EXPECT_EQ(linear.calls[0].start_ns, -5000);
    EXPECT_EQ(linear.calls[0].end_ns, 57000);
    EXPECT_EQ(linear.calls[1].start_ns, 991000);
    EXPECT_EQ(linear.calls[2].end_ns, 2053000);
    EXPECT_GE(linear.calls[0].lane, 0);
}

// Nested modules over operators that launch kernels (ours):
//   Net (1 call)      host 900, direct children Conv2d 300 + ReLU 100 +
//                     aten::add 50 + Conv2d 150 -> self 300; device 80 +
//                     40 + 30 + 50 = 200, self: aten::add's 30.
//   Conv2d (2 calls)  host 300 + 150, aten::conv2d 200 + 100 -> self 150;
//                     device 80 (a kernel of the nested aten::convolution)
//                     + 50, all through its direct operators.
//   ReLU              host 100 - aten::relu 60 - Dropout 10 = 30 (the
//                     Python frame between them is not a module); device 40.
//   Dropout           a child of ReLU through that Python frame; 10 us, no
//                     operators, mean = host time.
TEST(ModuleViewDevice, NestedModulesWithKernels) {
    const ModuleView& v = deviceView();
    ASSERT_EQ(v.roots.size(), 1u);
    const ModuleRow& net = v.roots[0];
    expectPluginRow(net, "Net", 100, 1, 1, 900, 300, 200, 30, 200.0);
    ASSERT_EQ(net.children.size(), 2u);
    expectPluginRow(net.children[0], "Conv2d", 200, 2, 2, 450, 150, 130, 130, 65.0);
    expectPluginRow(net.children[1], "ReLU", 300, 1, 1, 100, 30, 40, 40, 40.0);
    ASSERT_EQ(net.children[1].children.size(), 1u);
    expectPluginRow(net.children[1].children[0], "Dropout", 400, 1, 0, 10, 10, 0, 0, 10.0);
    EXPECT_TRUE(net.children[0].children.empty());
    ASSERT_EQ(net.children[0].calls.size(), 2u);
    EXPECT_EQ(net.children[0].calls[1].start_ns - net.children[0].calls[0].start_ns, 680000);
}

// PyTorch 2.11's tracer sometimes names a Python parent that skips the
// enclosing module (here: Block's parent is the script frame, not Net's
// forward). A module whose callers hold no module falls back to time
// nesting on its thread, so Block stays under Net instead of becoming a root.
TEST(ModuleViewDevice, AParentIdSkippingTheModuleFallsBackToTimeNesting) {
    const Trace t = parseChromeTrace(R"({"traceEvents": [
        {"ph": "X", "cat": "python_function", "name": "train.py(1): <module>", "pid": 1, "tid": 1,
         "ts": 0, "dur": 1000, "args": {"Python id": 0}},
        {"ph": "X", "cat": "python_function", "name": "nn.Module: Net_0", "pid": 1, "tid": 1,
         "ts": 10, "dur": 500, "args": {"Python id": 1, "Python parent id": 0, "Python module id": 100}},
        {"ph": "X", "cat": "python_function", "name": "nn.Module: Block_0", "pid": 1, "tid": 1,
         "ts": 20, "dur": 100, "args": {"Python id": 2, "Python parent id": 0, "Python module id": 200}},
        {"ph": "X", "cat": "python_function", "name": "nn.Module: Block_0", "pid": 1, "tid": 1,
         "ts": 200, "dur": 100, "args": {"Python id": 3, "Python parent id": 1, "Python module id": 200}},
        {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 30, "dur": 10}
    ]})",
                                     "skipped_parent.json");
    const ModuleView v = computeModuleView(t);
    ASSERT_EQ(v.roots.size(), 1u);
    EXPECT_EQ(v.roots[0].name, "Net_0");
    ASSERT_EQ(v.roots[0].children.size(), 1u);
    EXPECT_EQ(v.roots[0].children[0].name, "Block_0");
    EXPECT_EQ(v.roots[0].children[0].occurrences, 2);
}

// The parent id skips Block_0 but reaches Net_0: the call belongs to the
// Block_0 around it in time, not to Net_0 (Conv2d_10 under Sequential_0 on
// the 45-step H100 trace). Conv_0's second call has a sound chain.
TEST(ModuleViewDevice, AParentIdSkippingAnInnerModuleTakesTheInnermostByTime) {
    const Trace t = parseChromeTrace(R"({"traceEvents": [
        {"ph": "X", "cat": "python_function", "name": "nn.Module: Net_0", "pid": 1, "tid": 1,
         "ts": 0, "dur": 1000, "args": {"Python id": 1, "Python module id": 100}},
        {"ph": "X", "cat": "python_function", "name": "nn.Module: Block_0", "pid": 1, "tid": 1,
         "ts": 10, "dur": 400, "args": {"Python id": 2, "Python parent id": 1, "Python module id": 200}},
        {"ph": "X", "cat": "python_function", "name": "nn.Module: Conv_0", "pid": 1, "tid": 1,
         "ts": 20, "dur": 100, "args": {"Python id": 3, "Python parent id": 1, "Python module id": 300}},
        {"ph": "X", "cat": "python_function", "name": "nn.Module: Block_0", "pid": 1, "tid": 1,
         "ts": 500, "dur": 400, "args": {"Python id": 4, "Python parent id": 1, "Python module id": 200}},
        {"ph": "X", "cat": "python_function", "name": "nn.Module: Conv_0", "pid": 1, "tid": 1,
         "ts": 520, "dur": 100, "args": {"Python id": 5, "Python parent id": 4, "Python module id": 300}},
        {"ph": "X", "cat": "cpu_op", "name": "aten::conv2d", "pid": 1, "tid": 1, "ts": 30, "dur": 10}
    ]})",
                                     "skipped_inner_parent.json");
    const ModuleView v = computeModuleView(t);
    ASSERT_EQ(v.roots.size(), 1u);
    ASSERT_EQ(v.roots[0].children.size(), 1u) << "Conv_0 must not sit under Net_0";
    const ModuleRow& block = v.roots[0].children[0];
    EXPECT_EQ(block.name, "Block_0");
    EXPECT_EQ(block.occurrences, 2);
    ASSERT_EQ(block.children.size(), 1u);
    EXPECT_EQ(block.children[0].name, "Conv_0");
    EXPECT_EQ(block.children[0].occurrences, 2);
    EXPECT_EQ(block.children[0].operators, 1);
}

TEST(ModuleViewDevice, NoModulesGivesAReason) {
    const ModuleView v =
        computeModuleView(readChromeTraceFile(dataFile("tb_plugin/test_self_time.json")));
    EXPECT_TRUE(v.empty());
    EXPECT_NE(v.reason.find("with_modules=True"), std::string::npos);
    EXPECT_NE(v.reason.find("with_stack=True"), std::string::npos);
}

TEST(ModuleReport, TextIsAnIndentedTree) {
    const std::string text = modulesText(deviceView());
    EXPECT_NE(text.find("\nNet "), std::string::npos) << text;
    EXPECT_NE(text.find("\n  Conv2d "), std::string::npos) << text;
    EXPECT_NE(text.find("\n    Dropout "), std::string::npos) << text;
    EXPECT_NE(text.find("Device Self"), std::string::npos) << text;
}

TEST(ModuleReport, CsvHasOneRowPerModuleWithItsPath) {
    const std::string csv = modulesCsv(deviceView());
    EXPECT_EQ(csv.rfind("path,name,module_id,occurrences,operators,host_total_us,", 0), 0u);
    EXPECT_NE(csv.find("\nNet#100/Conv2d#200,Conv2d,200,2,2,450,150,130,130,65\n"),
              std::string::npos)
        << csv;
    EXPECT_NE(csv.find("\nNet#100/ReLU#300/Dropout#400,Dropout,400,1,0,10,10,0,0,10\n"),
              std::string::npos)
        << csv;
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
}

TEST(ModuleReport, JsonIsTheTree) {
    const json j = modulesJson(pluginView());
    ASSERT_EQ(j["modules"].size(), 2u);
    const json& my = j["modules"][1];
    EXPECT_EQ(my["name"], "MyModule");
    EXPECT_EQ(my["id"], 0);
    EXPECT_EQ(my["occurrences"], 3);
    EXPECT_DOUBLE_EQ(my["host_total_us"].get<double>(), 633.0);
    EXPECT_DOUBLE_EQ(my["host_self_us"].get<double>(), 447.0);
    EXPECT_DOUBLE_EQ(my["avg_us"].get<double>(), 211.0);
    EXPECT_EQ(my["calls"].size(), 3u);
    EXPECT_EQ(my["children"][0]["name"], "Linear");
    EXPECT_EQ(my["children"][0]["operators"], 3);
}

} // namespace
} // namespace ts
