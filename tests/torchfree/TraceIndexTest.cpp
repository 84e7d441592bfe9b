// The trace index (.tsidx) and the cache built on it: a round trip gives the
// same trace; a stale, truncated, corrupted or foreign index is refused with a
// reason and never crashes; the cache serves an unchanged trace from its
// index and rereads a changed one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "TestPaths.h"
#include "trace/ChromeTraceReader.h"
#include "trace/TraceCache.h"
#include "trace/TraceIndex.h"
#include "trace/TraceIndexCheck.h"
#include "trace/TraceKey.h"

namespace ts {
namespace {

namespace fs = std::filesystem;

fs::path data(const std::string& name) {
    return fs::path(TRAINSCOPE_TEST_DATA_DIR) / name;
}

TraceKey someKey() {
    TraceKey key;
    key.size = 1234, key.mtime_ns = 5678, key.device = 1, key.inode = 2;
    key.fingerprint[0] = 3, key.fingerprint[1] = 4;
    return key;
}

// The traces whose index must reproduce them: Kineto with launches, memory,
// call stacks, Python frames, devices, distributed info; a legacy trace.
const char* const kTraces[] = {
    "torch_profiler_sample.json",
    "torch_profiler_legacy_sample.json",
    "kineto_call_stacks.json",
    "memory_without_totals.json",
    "module_view_device.json",
    "tb_plugin/test_memory_view.json",
    "tb_plugin/test_distributed_nccl_0.json",
    "tb_plugin/test_build_module_hierarchy.json",
    "ondemand/duration_sgd.json.gz",
    "collective_seq/rank0.json",
};

TEST(TraceIndex, RoundTripReproducesEveryTrace) {
    for (const char* name : kTraces) {
        SCOPED_TRACE(name);
        const Trace trace = readChromeTraceFile(data(name));
        const std::string bytes = writeTraceIndex(trace, someKey());
        std::string why;
        const std::optional<Trace> back = readTraceIndex(bytes, someKey(), &why);
        ASSERT_TRUE(back) << why;
        // Written again, the loaded trace gives the same bytes: every field
        // made the trip.
        EXPECT_EQ(writeTraceIndex(*back, someKey()), bytes);
        EXPECT_EQ(back->events.size(), trace.events.size());
        EXPECT_EQ(back->names, trace.names);
        EXPECT_EQ(back->notes, trace.notes);
        EXPECT_EQ(back->source, trace.source);
        EXPECT_EQ(back->steps_from, trace.steps_from);
        EXPECT_EQ(back->origin_ns, trace.origin_ns);
        EXPECT_EQ(back->kineto.distributed_info, trace.kineto.distributed_info);
        ASSERT_EQ(back->kineto.collective_tags.size(), trace.kineto.collective_tags.size());
        for (const CollectiveTag& tag : trace.kineto.collective_tags) {
            const CollectiveTag* again = back->collectiveTagOf(tag.event);
            ASSERT_NE(again, nullptr);
            EXPECT_EQ(back->stringAt(again->group), trace.stringAt(tag.group));
            EXPECT_EQ(again->seq, tag.seq);
        }
        ASSERT_EQ(back->lanes.size(), trace.lanes.size());
        for (size_t i = 0; i < trace.lanes.size(); ++i) {
            EXPECT_EQ(back->lanes[i].name, trace.lanes[i].name);
            EXPECT_EQ(back->lanes[i].stream, trace.lanes[i].stream);
        }
        for (size_t i = 0; i < trace.events.size(); ++i) {
            EXPECT_EQ(back->events[i].start_ns, trace.events[i].start_ns);
            EXPECT_EQ(back->events[i].parent, trace.events[i].parent);
            EXPECT_EQ(back->events[i].device_ns, trace.events[i].device_ns);
        }
        // Interning still works on a loaded trace (its lookups are rebuilt).
        Trace copy = *back;
        EXPECT_EQ(copy.internName(trace.names.front()), 0u);
    }
}

TEST(TraceIndex, ARefusedIndexSaysWhy) {
    const Trace trace = readChromeTraceFile(data("torch_profiler_sample.json"));
    const std::string bytes = writeTraceIndex(trace, someKey());
    std::string why;
    TraceKey other = someKey();
    other.mtime_ns += 1;
    EXPECT_FALSE(readTraceIndex(bytes, other, &why));
    EXPECT_NE(why.find("stale"), std::string::npos) << why;
    other = someKey();
    other.fingerprint[1] ^= 1;
    EXPECT_FALSE(readTraceIndex(bytes, other, &why));
    EXPECT_FALSE(readTraceIndex("{\"traceEvents\": []}", someKey(), &why));
    EXPECT_NE(why.find("not a trace index"), std::string::npos) << why;
    EXPECT_FALSE(readTraceIndex(std::string(200, ' ') + "[]", someKey(), &why));
    EXPECT_NE(why.find("not a trace index"), std::string::npos) << why;
    EXPECT_FALSE(readTraceIndex(bytes.substr(0, bytes.size() - 8), someKey(), &why));
    EXPECT_NE(why.find("truncated"), std::string::npos) << why;
    std::string flipped = bytes;
    flipped[flipped.size() / 2] ^= 0x10;
    EXPECT_FALSE(readTraceIndex(flipped, someKey(), &why));
    EXPECT_EQ(why, "checksum mismatch");
}

TEST(TraceIndex, TruncatedAnywhereIsRefused) {
    const Trace trace = readChromeTraceFile(data("kineto_call_stacks.json"));
    const std::string bytes = writeTraceIndex(trace, someKey());
    for (size_t size = 0; size < bytes.size(); ++size)
        ASSERT_FALSE(readTraceIndex(std::string_view(bytes).substr(0, size), someKey()))
            << "accepted the first " << size << " of " << bytes.size() << " bytes";
}

// Bit flips, bytes set to extreme values, and cuts: each mutation is refused
// or yields a trace that passes the checks the analysis relies on. All are
// caught by the checksum; the semantic check is tested below on its own.
TEST(TraceIndex, MutationsNeverCrashOrSlipThrough) {
    const Trace trace = readChromeTraceFile(data("torch_profiler_sample.json"));
    const std::string bytes = writeTraceIndex(trace, someKey());
    std::mt19937_64 random(42);
    int accepted = 0;
    for (int round = 0; round < 2000; ++round) {
        std::string mutated = bytes;
        const int edits = 1 + static_cast<int>(random() % 4);
        for (int e = 0; e < edits; ++e) {
            const size_t at = random() % mutated.size();
            switch (random() % 3) {
            case 0:
                mutated[at] = static_cast<char>(mutated[at] ^ (1 << (random() % 8)));
                break;
            case 1:
                mutated[at] = static_cast<char>(random() % 2 ? 0xff : 0x7f);
                break;
            default:
                mutated.resize(at);
            }
            if (mutated.empty()) break;
        }
        if (mutated == bytes) continue; // a byte set to the value it had
        if (std::optional<Trace> t = readTraceIndex(mutated, someKey())) {
            ++accepted;
            EXPECT_EQ(traceIndexProblem(*t), "");
        }
    }
    EXPECT_EQ(accepted, 0) << "mutations passed the checksum";
}

TEST(TraceIndex, SoundnessCheckCatchesOutOfRangeIndexes) {
    Trace trace = readChromeTraceFile(data("torch_profiler_sample.json"));
    EXPECT_EQ(traceIndexProblem(trace), "");
    Trace bad = trace;
    bad.events.edit(3, [](TraceEvent& e) { e.parent = 5; });
    EXPECT_EQ(traceIndexProblem(bad), "an event's parent is out of range");
    bad = trace;
    bad.events.edit(bad.events.size() - 1,
                    [&](TraceEvent& e) { e.name = static_cast<uint32_t>(bad.names.size()); });
    EXPECT_EQ(traceIndexProblem(bad), "an event's name is out of range");
    bad = trace;
    bad.events.edit(0, [&](TraceEvent& e) { e.shapes = static_cast<int32_t>(bad.strings.size()); });
    EXPECT_EQ(traceIndexProblem(bad), "an event's string is out of range");
    bad = trace;
    {
        EventStore::Columns c = bad.events.columns().copy();
        c.extra.back() = static_cast<int32_t>(c.op.size()); // an op row past the end
        bad.events = EventStore::fromColumns(std::move(c));
    }
    EXPECT_EQ(traceIndexProblem(bad), "an event's extra row is out of range");
    bad = trace;
    bad.kineto.collective_tags = {CollectiveTag{2, -1, 1}, CollectiveTag{1, -1, 2}};
    EXPECT_EQ(traceIndexProblem(bad), "a collective's process group tag is out of range or order");
    bad.kineto.collective_tags = {CollectiveTag{1, static_cast<int32_t>(bad.strings.size()), 1}};
    EXPECT_EQ(traceIndexProblem(bad), "a collective's process group tag is out of range or order");
    bad.kineto.collective_tags = {CollectiveTag{static_cast<int32_t>(bad.events.size()), -1, 1}};
    EXPECT_EQ(traceIndexProblem(bad), "a collective's process group tag is out of range or order");
    bad = trace;
    {
        EventStore::Columns c = bad.events.columns().copy();
        c.extra.back() = static_cast<int32_t>(c.op.size()); // an op row past the end
        bad.events = EventStore::fromColumns(std::move(c));
    }
    // An index whose checksum is right but whose content is unsound (as a
    // bug in a writer could make) is refused too.
    std::string why;
    EXPECT_FALSE(readTraceIndex(writeTraceIndex(bad, someKey()), someKey(), &why));
    EXPECT_EQ(why, "an event's extra row is out of range");
}

class TraceCacheTest : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() /
                ("trainscope-cache-test-" +
                 std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root_);
        fs::create_directories(root_ / "traces");
        trace_ = root_ / "traces" / "sample.json";
        fs::copy_file(data("torch_profiler_sample.json"), trace_);
        settings_.directory = root_ / "cache";
        settings_.min_trace_bytes = 0;
    }
    void TearDown() override { fs::remove_all(root_); }

    Trace open(TraceOpening& opening) { return openTrace(trace_, {}, settings_, opening); }

    fs::path root_, trace_;
    TraceCacheSettings settings_;
};

TEST_F(TraceCacheTest, SecondOpenComesFromTheIndex) {
    TraceOpening first;
    const Trace read = open(first);
    EXPECT_FALSE(first.from_index);
    EXPECT_FALSE(fs::exists(first.index));
    keepTraceIndex(read, settings_, first);
    EXPECT_EQ(first.note, "");
    ASSERT_TRUE(fs::exists(first.index));
    EXPECT_EQ(traceCacheUsage(settings_).files, 1u);

    TraceOpening second;
    const Trace loaded = open(second);
    EXPECT_TRUE(second.from_index);
    EXPECT_EQ(writeTraceIndex(loaded, *second.key), writeTraceIndex(read, *second.key));
    keepTraceIndex(loaded, settings_, second); // nothing to do
    EXPECT_EQ(traceCacheUsage(settings_).files, 1u);
}

TEST_F(TraceCacheTest, AChangedTraceIsReadAgain) {
    TraceOpening first;
    keepTraceIndex(open(first), settings_, first);
    // Same size, other content: the fingerprint tells them apart even if the
    // modification time were kept.
    std::string text;
    {
        std::ifstream in(trace_);
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    const size_t at = text.find("aten::");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 6, "aten;;");
    const auto mtime = fs::last_write_time(trace_);
    std::ofstream(trace_, std::ios::binary | std::ios::trunc) << text;
    fs::last_write_time(trace_, mtime);
    TraceOpening second;
    const Trace reread = open(second);
    EXPECT_FALSE(second.from_index);
    EXPECT_NE(second.note.find("stale"), std::string::npos) << second.note;
    keepTraceIndex(reread, settings_, second); // replaces the stale index
    TraceOpening third;
    open(third);
    EXPECT_TRUE(third.from_index);
}

TEST_F(TraceCacheTest, ACorruptedIndexIsIgnoredAndRebuilt) {
    TraceOpening first;
    keepTraceIndex(open(first), settings_, first);
    fs::resize_file(first.index, fs::file_size(first.index) / 2);
    TraceOpening second;
    const Trace reread = open(second);
    EXPECT_FALSE(second.from_index);
    EXPECT_NE(second.note.find("truncated"), std::string::npos) << second.note;
    keepTraceIndex(reread, settings_, second);
    TraceOpening third;
    open(third);
    EXPECT_TRUE(third.from_index);
}

TEST_F(TraceCacheTest, SmallTracesAndDisabledCacheKeepNothing) {
    settings_.min_trace_bytes = 1 << 20;
    TraceOpening opening;
    keepTraceIndex(open(opening), settings_, opening);
    EXPECT_EQ(traceCacheUsage(settings_).files, 0u);
    settings_.min_trace_bytes = 0;
    settings_.enabled = false;
    keepTraceIndex(open(opening), settings_, opening);
    EXPECT_EQ(traceCacheUsage(settings_).files, 0u);
}

TEST_F(TraceCacheTest, AnUnwritableCacheOnlyLeavesANote) {
    settings_.directory = trace_ / "not-a-directory"; // below a file
    TraceOpening opening;
    const Trace read = open(opening);
    keepTraceIndex(read, settings_, opening);
    EXPECT_NE(opening.note.find("index not kept"), std::string::npos) << opening.note;
    EXPECT_EQ(read.events.size(), readChromeTraceFile(trace_).events.size());
}

TEST_F(TraceCacheTest, TrimsTheOldestAndClears) {
    TraceOpening first;
    keepTraceIndex(open(first), settings_, first);
    const uint64_t one = fs::file_size(first.index);
    const fs::path other = root_ / "traces" / "other.json";
    fs::copy_file(trace_, other);
    settings_.max_total_bytes = one + one / 2; // room for one index
    TraceOpening second;
    keepTraceIndex(openTrace(other, {}, settings_, second), settings_, second);
    EXPECT_TRUE(fs::exists(second.index));
    EXPECT_FALSE(fs::exists(first.index));
    EXPECT_EQ(clearTraceCache(settings_), 1u);
    EXPECT_EQ(traceCacheUsage(settings_).files, 0u);
}

TEST(TraceKey, SampledFingerprintCoversBothEndsOfALargeFile) {
    const fs::path path = fs::temp_directory_path() / "trainscope-key-test.bin";
    std::string content(12u << 20, 'x');
    std::ofstream(path, std::ios::binary) << content;
    const std::optional<TraceKey> a = traceKeyOf(path);
    content.back() = 'y';
    std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
    const std::optional<TraceKey> b = traceKeyOf(path);
    ASSERT_TRUE(a && b);
    EXPECT_NE(a->fingerprint[0], b->fingerprint[0]);
    EXPECT_EQ(a->size, b->size);
    fs::remove(path);
    EXPECT_FALSE(traceKeyOf(path));
}

} // namespace
} // namespace ts
