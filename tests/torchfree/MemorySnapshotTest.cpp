// PyTorch allocator snapshots (core/snapshot): the streaming reader on
// pickles of protocols 2, 4 and 5 written with PyTorch's sharing, against
// the figures PyTorch's viewers give (bench/memory/make_snapshot.py writes
// both), and its refusals: truncated files, pickles of something else, a
// pickle that would run code.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "TestPaths.h"
#include "analysis/MemoryCategories.h"
#include "inspect/MemoryStatsCommand.h"
#include "snapshot/ActiveTimeline.h"
#include "snapshot/AllocatorState.h"
#include "snapshot/SnapshotAnalysis.h"
#include "snapshot/SnapshotReader.h"
#include "sources/SourceRegistry.h"

namespace ts {
namespace {

const std::string kDir = std::string(TRAINSCOPE_TEST_DATA_DIR) + "/memory_snapshots/";

std::string bytesOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

class SnapshotFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(SnapshotFixture, FiguresAreThoseOfPyTorchsViewers) {
    const MemorySnapshot s = readMemorySnapshot(kDir + GetParam() + ".pickle");
    const nlohmann::json expected = nlohmann::json::parse(bytesOf(kDir + GetParam() + ".json"));
    ASSERT_TRUE(s.has_device_traces);
    ASSERT_EQ(s.traceDevices(), expected["devices"].size());
    for (const auto& e : expected["devices"]) {
        const int device = e["device"];
        const DeviceMemorySummary d = summarizeDevice(s, device);
        EXPECT_EQ(d.segments, e["segments"].get<size_t>());
        EXPECT_EQ(d.entries, e["entries"].get<size_t>());
        EXPECT_EQ(d.reserved_bytes, e["reserved_bytes"].get<int64_t>());
        EXPECT_EQ(d.allocated_bytes, e["allocated_bytes"].get<int64_t>());
        EXPECT_EQ(d.active_bytes, e["bytes_by_state"].value("active_allocated", int64_t(0)));
        EXPECT_EQ(d.pending_free_bytes,
                  e["bytes_by_state"].value("active_pending_free", int64_t(0)));
        EXPECT_EQ(d.inactive_bytes, e["bytes_by_state"].value("inactive", int64_t(0)));
        EXPECT_EQ(d.peak_allocated_bytes, e["peak_allocated_bytes"].get<int64_t>());
        EXPECT_EQ(d.peak_entry, e["peak_entry"].get<int64_t>());
        EXPECT_EQ(d.peak_reserved_bytes, e["peak_reserved_bytes"].get<int64_t>());
        EXPECT_EQ(d.ooms, e["ooms"].get<size_t>());
        // What was alive at the peak, by stack: the ten largest agree.
        std::map<std::string, int64_t> ours;
        for (const StackBytes& b : aliveAt(s, device, d.peak_entry))
            ours[stackText(s, b.stack)] += b.bytes;
        for (const auto& top : e["top_stacks_at_peak"]) {
            const std::string stack = top[0];
            EXPECT_EQ(ours[stack], top[1].get<int64_t>()) << stack;
        }
        int64_t alive = 0;
        for (const auto& [stack, bytes] : ours)
            alive += bytes;
        EXPECT_EQ(alive, d.peak_allocated_bytes);
        // The curve's maximum is the peak.
        const MemoryCurve& c = memoryCurve(s, device);
        ASSERT_EQ(c.allocated.size(), d.entries);
        if (d.peak_entry >= 0) {
            EXPECT_EQ(c.allocated[size_t(d.peak_entry)], d.peak_allocated_bytes);
        }
        EXPECT_EQ(c.reserved.empty() ? 0 : c.reserved.back(), d.reserved_bytes);
    }
    // Frames and stacks are kept once each, as the pickle shares them.
    EXPECT_LE(s.frames.size(), 121u);
    EXPECT_LE(s.stackCount(), 301u);
    EXPECT_FALSE(s.allocator_settings.empty());
}

// The Active Memory Timeline's bands stack up to the allocated curve at
// every entry; with fewer bands drawn, the rest is what the grey band holds.
TEST_P(SnapshotFixture, ActiveTimelineBandsAddUpToTheCurve) {
    const MemorySnapshot s = readMemorySnapshot(kDir + GetParam() + ".pickle");
    for (int device = 0; device < int(s.traceDevices()); ++device) {
        const ActiveTimeline all = activeTimeline(s, device, SIZE_MAX);
        EXPECT_EQ(all.summarized, 0u);
        ASSERT_EQ(all.allocated.size(), size_t(all.steps));
        for (int64_t t = 0; t < all.steps; ++t) {
            int64_t sum = 0;
            for (const ActiveBand& b : all.bands)
                if (b.start <= t && t < b.end) sum += b.size;
            ASSERT_EQ(sum, all.allocated[size_t(t)]) << "entry " << t;
        }
        const ActiveTimeline some = activeTimeline(s, device, 50);
        EXPECT_EQ(some.bands.size(), 50u);
        EXPECT_EQ(some.summarized, all.bands.size() - 50);
        int64_t smallest_drawn = INT64_MAX;
        for (const ActiveBand& b : some.bands)
            smallest_drawn = std::min(smallest_drawn, b.size);
        size_t larger = 0; // drawn are the largest
        for (const ActiveBand& b : all.bands)
            larger += b.size > smallest_drawn;
        EXPECT_LE(larger, 50u);
    }
}

// Allocator State History: undoing the trace gives, after every entry, the
// reserved bytes of the forward curve; after the last, the dump's segments.
TEST_P(SnapshotFixture, AllocatorStateAgreesWithTheCurveAndTheDump) {
    const MemorySnapshot s = readMemorySnapshot(kDir + GetParam() + ".pickle");
    for (int device = 0; device < int(s.traceDevices()); ++device) {
        const MemoryCurve& c = memoryCurve(s, device);
        const int64_t n = int64_t(c.reserved.size());
        for (int64_t e : {int64_t(0), n / 3, n / 2, n - 2, n - 1}) {
            const AllocatorState st = allocatorStateAt(s, device, e);
            EXPECT_EQ(st.reserved_bytes, c.reserved[size_t(e)]) << "entry " << e;
            for (const StateSegment& seg : st.segments)
                EXPECT_LE(seg.allocated(), seg.size);
        }
        const AllocatorState last = allocatorStateAt(s, device, n - 1);
        const DeviceMemorySummary d = summarizeDevice(s, device);
        EXPECT_EQ(last.segments.size(), d.segments);
        EXPECT_EQ(last.allocated_bytes, d.active_bytes + d.pending_free_bytes);
    }
}

INSTANTIATE_TEST_SUITE_P(Generated, SnapshotFixture,
                         ::testing::Values("p2_seed1", "p5_seed2", "p4_seed3"));

TEST(MemorySnapshot, ProtocolAndTexts) {
    const MemorySnapshot s = readMemorySnapshot(kDir + "p5_seed2.pickle");
    EXPECT_EQ(s.protocol, 5);
    EXPECT_EQ(readMemorySnapshot(kDir + "p2_seed1.pickle").protocol, 2);
    // A stack reads outermost first, with PyTorch's frame format.
    bool user = false;
    for (uint32_t st = 1; st < s.stackCount(); ++st)
        user = user || userFrame(s, st).find("train.py:") == 0 ||
               userFrame(s, st).find("model.py:") == 0 || userFrame(s, st).find("data.py:") == 0;
    EXPECT_TRUE(user);
    EXPECT_EQ(stackText(s, 0), "<no frames>");
}

TEST(MemorySnapshot, WithoutHistoryAndLegacyLists) {
    const MemorySnapshot none = readMemorySnapshot(kDir + "no_traces.pickle");
    EXPECT_FALSE(none.has_device_traces);
    ASSERT_EQ(none.segments.size(), 1u);
    const DeviceMemorySummary d = summarizeDevice(none, 0);
    EXPECT_EQ(d.allocated_bytes, 1000); // history[0].real_size
    EXPECT_EQ(d.reserved_bytes, 4096);
    EXPECT_EQ(d.peak_allocated_bytes, 1000); // alive before a trace there is not
    const MemorySnapshot legacy = readMemorySnapshot(kDir + "legacy_segments.pickle");
    ASSERT_EQ(legacy.segments.size(), 1u);
    ASSERT_EQ(legacy.blocks.size(), 2u);
    EXPECT_EQ(legacy.blocks[1].address, 4096 + 1024); // counted: 2.0 gave no addresses
    EXPECT_EQ(stackText(legacy, legacy.blocks[0].stack), "model.py:7:forward");
}

TEST(MemorySnapshot, RefusesWhatIsNotASnapshotInPlainWords) {
    auto message = [](const std::string& file) {
        try {
            readMemorySnapshot(kDir + file);
        } catch (const SnapshotError& e) {
            return std::string(e.what());
        }
        return std::string("(read)");
    };
    EXPECT_NE(message("runs_code.pickle").find("asks to run code"), std::string::npos);
    EXPECT_NE(message("runs_code.pickle").find("runs_code.pickle"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists("/tmp/trainscope-pwned"));
    EXPECT_NE(message("not_a_snapshot.pickle").find("not a memory snapshot"), std::string::npos);
    EXPECT_NE(message("missing.pickle").find("cannot open"), std::string::npos);
    // Every truncation of a real snapshot: an error, never a crash.
    const std::string bytes = bytesOf(kDir + "p4_seed3.pickle");
    for (size_t cut :
         {size_t(0), size_t(1), size_t(2), size_t(100), bytes.size() / 2, bytes.size() - 1}) {
        try {
            parseMemorySnapshot(bytes.substr(0, cut), "cut");
            ADD_FAILURE() << "a cut at " << cut << " was read";
        } catch (const SnapshotError& e) {
            EXPECT_NE(std::string(e.what()).find("cut: "), std::string::npos);
        }
    }
    EXPECT_NE(message("README.md").find("opcode"), std::string::npos);
}

// Issue 62: a snapshot whose segments were a string and device_traces a
// number read as an empty snapshot. Every field the reader reads, of the
// wrong type, is refused naming it and where it is; a missing optional
// field is no fault (bench/memory/make_wrong_types.py wrote the files and
// the messages).
TEST(MemorySnapshot, RefusesFieldsOfTheWrongTypeNamingWhere) {
    const std::string dir = kDir + "wrong_types/";
    const nlohmann::json expected = nlohmann::json::parse(bytesOf(dir + "expected.json"));
    ASSERT_GE(expected.size(), 30u);
    for (const auto& [name, message] : expected.items()) {
        const std::string file = dir + name + ".pickle";
        if (message.get<std::string>().empty()) continue;
        try {
            readMemorySnapshot(file);
            ADD_FAILURE() << name << " was read";
        } catch (const SnapshotError& e) {
            EXPECT_EQ(std::string(e.what()), file + ": " + message.get<std::string>());
        }
        // The same bytes from memory (the fuzzer's way): the same refusal.
        EXPECT_THROW(parseMemorySnapshot(bytesOf(file), name), SnapshotError) << name;
    }
    ASSERT_EQ(expected.value("without_optional_fields", "?"), "");
    const MemorySnapshot lean = readMemorySnapshot(dir + "without_optional_fields.pickle");
    ASSERT_EQ(lean.segments.size(), 4u);
    ASSERT_EQ(lean.traceSize(0), 8u);
    const DeviceMemorySummary d = summarizeDevice(lean, 0);
    EXPECT_EQ(d.reserved_bytes, 16 << 20);
    EXPECT_EQ(d.allocated_bytes, 4 << 20); // requested_size missing: the block's size
    EXPECT_EQ(lean.blocks[1].address, lean.segments[0].address + (1 << 20)); // counted
    EXPECT_TRUE(lean.allocator_settings.empty());
}

TEST(MemorySnapshot, CommandsPrintTheFiguresAndNameWhatIsWrong) {
    MemoryStatsOptions o;
    o.file = kDir + "p5_seed2.pickle";
    o.format = "json";
    std::ostringstream out, err;
    ASSERT_EQ(runMemoryStats(o, out, err), 0) << err.str();
    const nlohmann::json j = nlohmann::json::parse(out.str());
    const nlohmann::json expected = nlohmann::json::parse(bytesOf(kDir + "p5_seed2.json"));
    ASSERT_EQ(j["devices"].size(), 2u);
    for (size_t d = 0; d < 2; ++d) {
        EXPECT_EQ(j["devices"][d]["peak_allocated_bytes"],
                  expected["devices"][d]["peak_allocated_bytes"]);
        EXPECT_EQ(j["devices"][d]["peak_reserved_bytes"],
                  expected["devices"][d]["peak_reserved_bytes"]);
        EXPECT_EQ(j["devices"][d]["top_stacks_at_peak"][0]["bytes"],
                  expected["devices"][d]["top_stacks_at_peak"][0][1]);
        EXPECT_EQ(j["devices"][d]["top_stacks_at_peak"][0]["stack"],
                  expected["devices"][d]["top_stacks_at_peak"][0][0]);
    }
    for (const char* view :
         {"summary", "peak", "flame", "dump", "segments", "timeline", "oom", "state"}) {
        o.view = view;
        o.format = "csv";
        out.str("");
        EXPECT_EQ(runMemoryStats(o, out, err), 0) << view << ": " << err.str();
        EXPECT_GT(out.str().size(), 50u) << view;
    }
    o.view = "timeline";
    o.limit = 10;
    o.format = "csv";
    out.str("");
    ASSERT_EQ(runMemoryStats(o, out, err), 0);
    // Two devices, at most 10 points each, with headers.
    const std::string csv = out.str();
    EXPECT_LE(std::count(csv.begin(), csv.end(), '\n'), 24);
    // Bad input: exit 2, the file or option named.
    o.view = "flames";
    err.str("");
    EXPECT_EQ(runMemoryStats(o, out, err), 2);
    EXPECT_NE(err.str().find("--view is 'flames'"), std::string::npos);
    // What the segments held needs no history; it adds up to the allocated bytes.
    o.view = "dump";
    o.file = kDir + "no_traces.pickle";
    o.format = "json";
    out.str("");
    ASSERT_EQ(runMemoryStats(o, out, err), 0) << err.str();
    const MemorySnapshot no_history = readMemorySnapshot(o.file);
    int64_t dumped = 0;
    for (const auto& row : nlohmann::json::parse(out.str())) // the rows, numbers as text or not
        dumped += row["bytes"].is_string() ? std::stoll(row["bytes"].get<std::string>())
                                           : row["bytes"].get<int64_t>();
    EXPECT_EQ(dumped, summarizeDevice(no_history, 0).allocated_bytes);
    o.format = "csv";
    o.view = "timeline";
    o.file = kDir + "no_traces.pickle";
    err.str("");
    EXPECT_EQ(runMemoryStats(o, out, err), 2);
    EXPECT_NE(err.str().find("_record_memory_history"), std::string::npos);
    o.file = kDir + "runs_code.pickle";
    o.view = "summary";
    err.str("");
    EXPECT_EQ(runMemoryStats(o, out, err), 2);
    EXPECT_NE(err.str().find("never runs anything"), std::string::npos);
    // Issue 62's file: refused, not an empty snapshot.
    o.file = kDir + "wrong_types/segments_string_traces_number.pickle";
    err.str("");
    out.str("");
    EXPECT_EQ(runMemoryStats(o, out, err), 2);
    EXPECT_EQ(err.str(), "memory-stats: " + o.file + ": segments is a string, expected a list\n");
    EXPECT_EQ(out.str(), "");
    // A snapshot against itself: nothing grew; against another: rows.
    MemoryStatsOptions diff;
    diff.file = diff.other = kDir + "p4_seed3.pickle";
    diff.format = "csv";
    out.str("");
    ASSERT_EQ(runMemoryDiff(diff, out, err), 0);
    diff.other = kDir + "p2_seed1.pickle";
    std::ostringstream grown;
    ASSERT_EQ(runMemoryDiff(diff, grown, err), 0);
    EXPECT_GT(grown.str().size(), out.str().size());
}

} // namespace
} // namespace ts

namespace ts {
namespace {

// Holistic Trace Analysis' test of MemoryAnalysis._process_raw_events on its
// export_memory_timeline file, re-expressed: the same points, sizes[744].
TEST(MemoryCategories, HtasTimelineFileGivesHtasFigures) {
    const std::string file = std::string(TRAINSCOPE_TEST_DATA_DIR) + "/hta/memory_timeline.raw.gz";
    ASSERT_EQ(ts::sources::recognise(file).kind, &ts::sources::sourceKind("memory-timeline"));
    const CategoryTimeline t = readCategoryTimeline(file);
    EXPECT_EQ(t.rows, 16845u);
    ASSERT_EQ(t.times_ns.size(), t.bytes.size());
    ASSERT_GT(t.bytes.size(), 744u);
    const std::array<int64_t, kMemoryCategories> expected = {
        102440608, 102228128, 19395584, 0, 2618160128, 58417152, 41811968, 25494440};
    EXPECT_EQ(t.bytes[744], expected);
    // Allocations from before profiling sit at the first real time.
    EXPECT_EQ(t.times_ns.front(), 1696966047096061874);
    EXPECT_TRUE(std::is_sorted(t.times_ns.begin(), t.times_ns.end()));
    const CategoryPeak peak = categoryPeak(t);
    int64_t total = 0;
    for (int64_t b : peak.bytes)
        total += b;
    EXPECT_EQ(total, peak.total_bytes);
    for (const auto& point : t.bytes) {
        int64_t sum = 0;
        for (int64_t b : point)
            sum += b;
        EXPECT_LE(sum, peak.total_bytes);
    }
    EXPECT_STREQ(memoryCategoryName(4), "Activation");
    // Not such a file: a trace, or rows of something else.
    EXPECT_NE(ts::sources::recognise(std::string(TRAINSCOPE_TEST_DATA_DIR) +
                                     "/torch_profiler_sample.json")
                  .kind,
              &ts::sources::sourceKind("memory-timeline"));
    EXPECT_THROW(categoryTimelineFromJson("[[1, 2, 3]]", "x"), std::invalid_argument);
    EXPECT_THROW(categoryTimelineFromJson("[[1, 2, 3, 9]]", "x"), std::invalid_argument);
}

} // namespace
} // namespace ts
