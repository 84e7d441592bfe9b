// The ops' own CPU bytes (analysis/OpMemory.h): torch.profiler's [memory]
// instants count towards the innermost op open on their thread, computed
// when asked instead of kept per op in the event store.
#include <gtest/gtest.h>

#include <string>

#include "TestPaths.h"
#include "analysis/OpMemory.h"
#include "analysis/OpStats.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

Trace parse(const std::string& events) {
    return parseChromeTrace("{\"schemaVersion\": 1, \"traceEvents\": [" + events + "]}", "test");
}

std::string op(const std::string& name, int ts, int dur, int tid = 1) {
    return "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + name +
           "\", \"pid\": 1, \"tid\": " + std::to_string(tid) + ", \"ts\": " + std::to_string(ts) +
           ", \"dur\": " + std::to_string(dur) + ", \"args\": {\"External id\": 1}}";
}

std::string instant(int ts, int bytes, const std::string& device = "\"Device Type\": 0, ",
                    int tid = 1) {
    return "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", \"pid\": 1, "
           "\"tid\": " +
           std::to_string(tid) + ", \"ts\": " + std::to_string(ts) + ", \"args\": {" + device +
           "\"Bytes\": " + std::to_string(bytes) + ", \"Total Allocated\": 0}}";
}

int32_t eventNamed(const Trace& t, const std::string& name) {
    for (size_t i = 0; i < t.events.size(); ++i)
        if (t.nameOf(t.events[i]) == name) return static_cast<int32_t>(i);
    return -1;
}

TEST(OpMemory, InstantsCountTowardsTheInnermostOpOfTheirThread) {
    const Trace t = parse(op("outer", 0, 100) + ", " + op("inner", 10, 20) + ", " +
                          op("other_thread", 0, 100, 2) + ", " + instant(5, 100) + ", " +
                          instant(15, 64) + ", " + instant(25, -64) + ", " + instant(40, -30) +
                          ", " + instant(150, 7) + // after every op: nobody's
                          ", " + instant(50, 1000, "\"Device Type\": 1, ") + // GPU: no op's
                          ", " + instant(60, 8, "") +                        // no device type: CPU
                          ", " + instant(20, 5, "\"Device Type\": 0, ", 2));
    const std::vector<OpMemory> m = opMemory(t);
    const int32_t outer = eventNamed(t, "outer"), inner = eventNamed(t, "inner"),
                  other = eventNamed(t, "other_thread");
    ASSERT_GE(outer, 0);
    EXPECT_EQ(m[size_t(outer)].alloc_bytes, 108);
    EXPECT_EQ(m[size_t(outer)].free_bytes, 30);
    EXPECT_EQ(m[size_t(inner)].alloc_bytes, 64);
    EXPECT_EQ(m[size_t(inner)].free_bytes, 64);
    EXPECT_EQ(m[size_t(other)].alloc_bytes, 5);
    for (size_t i = 0; i < t.events.size(); ++i) {
        const OpMemory one = opMemoryOf(t, static_cast<int32_t>(i));
        EXPECT_EQ(one.alloc_bytes, m[i].alloc_bytes) << i;
        EXPECT_EQ(one.free_bytes, m[i].free_bytes) << i;
    }
    // The operator table's memory columns come from the same attribution.
    const OpTable table = computeOpStats(t);
    for (const OpStat& row : table.rows) {
        if (row.name == "outer") {
            EXPECT_EQ(row.self_cpu_mem_bytes, 78);
            EXPECT_EQ(row.cpu_mem_bytes, 78);
        }
        if (row.name == "inner") {
            EXPECT_EQ(row.self_cpu_mem_bytes, 0);
        }
    }
}

TEST(OpMemory, TheSampleTraceAgreesEventByEvent) {
    const Trace t =
        readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/torch_profiler_sample.json");
    ASSERT_FALSE(t.kineto.memory.empty());
    EXPECT_TRUE(t.memory.empty()); // the instants are kept once, in kineto.memory
    const std::vector<OpMemory> m = opMemory(t);
    int64_t owned = 0;
    for (size_t i = 0; i < t.events.size(); ++i) {
        const OpMemory one = opMemoryOf(t, static_cast<int32_t>(i));
        ASSERT_EQ(one.alloc_bytes, m[i].alloc_bytes) << i;
        ASSERT_EQ(one.free_bytes, m[i].free_bytes) << i;
        owned += m[i].alloc_bytes;
    }
    EXPECT_GT(owned, 0);
}

// A trace with Trainscope's "CPU memory" counters keeps a sample per CPU
// instant too, in file order among the counters and sorted by time, each
// naming its op; a counter without its live_bytes is no memory record.
TEST(OpMemory, CountersAndInstantsMakeSamplesInFileOrder) {
    const std::string counter =
        "{\"ph\": \"C\", \"name\": \"CPU memory\", \"pid\": 1, \"tid\": 1, ";
    const Trace t = parse(op("outer", 0, 100) + ", " + instant(10, 64) + ", " + counter +
                          "\"ts\": 10, \"args\": {\"live_bytes\": 500}}, " + instant(30, -64) +
                          ", " + counter + "\"ts\": 5, \"args\": {\"live_bytes\": 100}}, " +
                          counter + "\"ts\": 40, \"args\": {\"Bytes\": 3}}");
    ASSERT_EQ(t.memory.size(), 4u);
    EXPECT_EQ(t.memory[0].t_ns, 5000);
    EXPECT_EQ(t.memory[0].live_bytes, 100);
    EXPECT_EQ(t.memory[1].delta_bytes, 64); // the instant at 10 us came before the counter at 10
    EXPECT_EQ(t.memory[1].event, eventNamed(t, "outer"));
    EXPECT_EQ(t.memory[2].live_bytes, 500);
    EXPECT_EQ(t.memory[2].event, -1);
    EXPECT_EQ(t.memory[3].delta_bytes, -64);
    EXPECT_EQ(t.memory[3].event, eventNamed(t, "outer"));
    bool malformed_noted = false;
    for (const std::string& note : t.notes)
        malformed_noted = malformed_noted || note.find("1 malformed") != std::string::npos;
    EXPECT_TRUE(malformed_noted);
}

} // namespace
} // namespace ts
