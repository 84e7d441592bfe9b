// The paths taken only by traces of millions of events, on a synthetic
// trace of 1.2 M: the trace index loads its large sections on several
// threads and checks its checksum by blocks, the soundness check and the
// Kineto event list run on two threads. Each must give what the one-thread
// path gives: the same trace, the same first problem, the same order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "analysis/KinetoEvents.h"
#include "trace/IndexChecksum.h"
#include "trace/TraceIndex.h"
#include "trace/TraceIndexCheck.h"

namespace ts {
namespace {

constexpr size_t kEvents = 1'200'000; // above every threshold of the parallel paths

TraceKey someKey() {
    TraceKey key;
    key.size = 99, key.mtime_ns = 7;
    key.fingerprint[0] = 5;
    return key;
}

// Two lanes of equal size. `host_later`: the host lane's events come after
// the device lane's in time, so each half of the list is in time order and
// only where the halves meet is it not.
Trace twoLanes(bool host_later) {
    Trace t;
    const int32_t host = t.laneFor(1, false, "host");
    const int32_t device = t.laneFor(7, true, "stream 7");
    const uint32_t names[] = {t.internName("aten::mm"), t.internName("aten::add"),
                              t.internName("volta_sgemm")};
    const int64_t host_start = host_later ? int64_t(kEvents) * 1000 : 0;
    for (size_t i = 0; i < kEvents; ++i) {
        TraceEvent e;
        const bool on_host = i < kEvents / 2;
        e.lane = on_host ? host : device;
        e.name = on_host ? names[i % 2] : names[2];
        e.kind = on_host ? EventKind::Operator : EventKind::Kernel;
        const size_t k = on_host ? i : i - kEvents / 2;
        e.start_ns = (on_host ? host_start : 0) + int64_t(k) * 1000 + (on_host ? 0 : 500);
        e.dur_ns = 400;
        t.events.push_back(e);
    }
    t.finalize();
    return t;
}

const Trace& sharedTrace() {
    static const Trace trace = twoLanes(false);
    return trace;
}

TEST(LargeTrace, IndexRoundTripLoadsLargeSectionsOnThreads) {
    const Trace& trace = sharedTrace();
    const std::string bytes = writeTraceIndex(trace, someKey());
    ASSERT_GT(bytes.size(), 8 * kIndexChecksumBlock); // several large sections and blocks
    std::string why;
    const std::optional<Trace> back = readTraceIndex(bytes, someKey(), &why);
    ASSERT_TRUE(back) << why;
    EXPECT_EQ(writeTraceIndex(*back, someKey()), bytes);
    // The FILE* reader (pread at the file's position, after a prefix).
    const auto path = std::filesystem::temp_directory_path() /
                      ("large-trace-" + std::to_string(::getpid()) + ".tsidx");
    {
        std::ofstream out(path, std::ios::binary);
        out << "PREFIX" << bytes;
    }
    std::FILE* file = std::fopen(path.c_str(), "rb");
    ASSERT_NE(file, nullptr);
    std::fseek(file, 6, SEEK_SET);
    const std::optional<Trace> from_file = readTraceIndex(file, someKey(), &why);
    std::fclose(file);
    std::filesystem::remove(path);
    ASSERT_TRUE(from_file) << why;
    EXPECT_EQ(writeTraceIndex(*from_file, someKey()), bytes);
}

// The lanes' records are checked against their names before the large
// sections load: 50,000 lanes (1.2 MB of records) are read at once too.
TEST(LargeTrace, AnIndexOfFiftyThousandLanesRoundTrips) {
    Trace t;
    const uint32_t name = t.internName("work");
    for (int i = 0; i < 50'000; ++i) {
        TraceEvent e;
        e.name = name;
        e.lane = t.laneFor(i, false, "thread " + std::to_string(i));
        e.start_ns = i;
        e.dur_ns = 1;
        t.events.push_back(e);
    }
    t.finalize();
    const std::string bytes = writeTraceIndex(t, someKey());
    std::string why;
    const std::optional<Trace> back = readTraceIndex(bytes, someKey(), &why);
    ASSERT_TRUE(back) << why;
    ASSERT_EQ(back->lanes.size(), 50'000u);
    EXPECT_EQ(back->lanes.back().name, "thread 49999");
    EXPECT_EQ(writeTraceIndex(*back, someKey()), bytes);
}

TEST(LargeTrace, IndexWithALargeSectionCutOrFlippedIsRefused) {
    const std::string bytes = writeTraceIndex(sharedTrace(), someKey());
    std::mt19937_64 random(7);
    for (int round = 0; round < 6; ++round) {
        // Past the small sections at the front: inside the event columns.
        const size_t at = bytes.size() / 8 + random() % (bytes.size() * 3 / 4);
        std::string flipped = bytes;
        flipped[at] = static_cast<char>(flipped[at] ^ (1 << (random() % 8)));
        std::string why;
        EXPECT_FALSE(readTraceIndex(flipped, someKey(), &why)) << "flip at " << at;
        EXPECT_EQ(why, "checksum mismatch") << "flip at " << at;
        EXPECT_FALSE(readTraceIndex(std::string_view(bytes).substr(0, at), someKey(), &why));
    }
}

TEST(LargeTrace, ChecksumByBlocksIsTheSameHoweverTheBodyIsCut) {
    std::mt19937_64 random(3);
    for (size_t size : {size_t(0), size_t(5), kIndexChecksumBlock - 1, kIndexChecksumBlock,
                        kIndexChecksumBlock + 1, 3 * kIndexChecksumBlock + 12345}) {
        SCOPED_TRACE(size);
        std::string body(size, '\0');
        for (char& c : body)
            c = static_cast<char>(random());
        const uint64_t whole = indexChecksum(body);
        IndexChecksum streamed;
        std::vector<IndexBytes> pieces;
        for (size_t at = 0; at < size;) {
            const size_t take =
                std::min<size_t>(size - at, 1 + random() % (kIndexChecksumBlock / 3));
            streamed.add(body.data() + at, take);
            pieces.push_back(IndexBytes{body.data() + at, take});
            at += take;
        }
        EXPECT_EQ(streamed.digest(), whole);
        for (unsigned threads : {1u, 2u, 4u})
            EXPECT_EQ(indexChecksum(pieces, threads), whole);
        if (size > 0) { // and it sees every byte
            body[size / 2] ^= 1;
            EXPECT_NE(indexChecksum(body), whole);
        }
    }
}

TEST(LargeTrace, SoundnessCheckReportsTheFirstProblemInEventOrder) {
    const Trace& trace = sharedTrace();
    EXPECT_EQ(traceIndexProblem(trace), "");
    Trace bad = trace;
    bad.events.edit(kEvents - 3, [](TraceEvent& e) { e.dur_ns = -1; }); // second half
    EXPECT_EQ(traceIndexProblem(bad), "an event's duration is negative");
    bad.events.edit(10, [&](TraceEvent& e) { e.name = uint32_t(bad.names.size()); });
    EXPECT_EQ(traceIndexProblem(bad), "an event's name is out of range"); // first half first
    // A column's problem comes after every event's. (The event is edited
    // before the column is spoiled: edit() reads the event's op row.)
    auto spoilExtra = [](Trace& t) {
        EventStore::Columns c = t.events.columns().copy();
        c.extra.back() = static_cast<int32_t>(c.op.size());
        t.events = EventStore::fromColumns(std::move(c));
    };
    bad = trace;
    spoilExtra(bad);
    EXPECT_EQ(traceIndexProblem(bad), "an event's extra row is out of range");
    bad = trace;
    bad.events.edit(kEvents - 1, [](TraceEvent& e) { e.depth = -1; });
    spoilExtra(bad);
    EXPECT_EQ(traceIndexProblem(bad), "an event's depth is negative");
}

// The order the views rely on: (start, lane, index), as one stable sort of
// the whole list gives it.
void expectPluginOrder(const Trace& t) {
    const KinetoEvents events = collectKinetoEvents(t, GpuAnalysisOptions{});
    ASSERT_EQ(events.events.size(), t.events.size());
    std::vector<int32_t> order(t.events.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = int32_t(i);
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        const EventCore &x = t.events.core(size_t(a)), &y = t.events.core(size_t(b));
        if (x.start_ns != y.start_ns) return x.start_ns < y.start_ns;
        return x.lane < y.lane;
    });
    for (size_t i = 0; i < order.size(); ++i) {
        ASSERT_EQ(events.events[i].event, order[i]) << "at " << i;
        const PluginType expected = t.events.core(size_t(order[i])).kind == EventKind::Kernel
                                        ? PluginType::Kernel
                                        : PluginType::Operator;
        ASSERT_EQ(events.events[i].type, expected) << "at " << i;
    }
}

TEST(LargeTrace, KinetoEventsAreInTimeOrderWhenLanesInterleave) {
    expectPluginOrder(sharedTrace());
}

TEST(LargeTrace, KinetoEventsAreInTimeOrderWhenOnlyTheHalvesMeetOutOfOrder) {
    expectPluginOrder(twoLanes(true));
}

} // namespace
} // namespace ts
