// A snapshot's filters (size, frame text, entries) and the flame graph of
// what was alive: without a filter the lifetimes give PyTorch's figures
// (the curve and what was alive at any entry, as aliveAt finds them from the
// trace); with one, every figure is that of the allocations it keeps, checked
// against a count over them; the flame graph's nodes add up; the CLI names a
// bad value.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "TestPaths.h"
#include "inspect/MemoryStatsCommand.h"
#include "report/SnapshotTables.h"
#include "snapshot/ActiveTimeline.h"
#include "snapshot/MemoryFlame.h"
#include "snapshot/SnapshotFilter.h"
#include "snapshot/SnapshotReader.h"
#include "util/ByteSize.h"

namespace ts {
namespace {

const std::string kDir = std::string(TRAINSCOPE_TEST_DATA_DIR) + "/memory_snapshots/";

std::map<uint32_t, int64_t> byStack(const std::vector<StackBytes>& alive) {
    std::map<uint32_t, int64_t> out;
    for (const StackBytes& b : alive)
        out[b.stack] += b.bytes;
    return out;
}

class FilterFixture : public ::testing::TestWithParam<std::string> {
protected:
    MemorySnapshot s = readMemorySnapshot(kDir + GetParam() + ".pickle");
};

TEST_P(FilterFixture, WithoutAFilterTheLifetimesGivePyTorchsFigures) {
    for (int device = 0; device < int(s.traceDevices()); ++device) {
        const FilteredAllocations f = filterAllocations(s, device, {});
        EXPECT_EQ(f.allocated, memoryCurve(s, device).allocated);
        const DeviceMemorySummary d = summarizeDevice(s, device);
        if (d.peak_entry >= 0) {
            EXPECT_EQ(f.peak_entry, d.peak_entry);
            EXPECT_EQ(f.peak_bytes, d.peak_allocated_bytes);
        }
        const auto n = int64_t(s.traceSize(device));
        for (int64_t e : {int64_t(0), n / 4, n / 2, d.peak_entry, n - 1})
            if (e >= 0) EXPECT_EQ(byStack(aliveAfter(f, e)), byStack(aliveAt(s, device, e))) << e;
    }
}

TEST_P(FilterFixture, AFilterKeepsWhatItSaysAndItsPeakIsTheirs) {
    const int device = 0;
    const auto n = int64_t(s.traceSize(device));
    const std::vector<ActiveBand> all = allocationLifetimes(s, device);
    // A frame that some stacks have and others lack: the innermost of the peak's top stack.
    const std::vector<StackBytes> top = aliveAt(s, device, summarizeDevice(s, device).peak_entry);
    ASSERT_FALSE(top.empty());
    const std::string frame = userFrame(s, top.front().stack);
    ASSERT_FALSE(frame.empty());
    SnapshotFilter filter;
    filter.min_bytes = 1 << 20;
    filter.frame_text = frame.substr(0, frame.rfind(':')); // "file.py:line", any case
    std::transform(filter.frame_text.begin(), filter.frame_text.end(), filter.frame_text.begin(),
                   ::toupper);
    filter.first_entry = n / 5;
    filter.last_entry = n - n / 5;
    const FilteredAllocations f = filterAllocations(s, device, filter);
    const std::vector<uint8_t> matching = stacksMatching(s, filter.frame_text);
    // By brute force over every allocation: what the filter keeps after each entry.
    std::vector<int64_t> expected(size_t(n), 0);
    size_t kept = 0, in_range = 0;
    for (const ActiveBand& b : all) {
        if (b.size < filter.min_bytes || !matching[b.stack]) continue;
        ++kept;
        in_range += b.start <= filter.last_entry && b.end > filter.first_entry;
        for (int64_t t = 0; t < n; ++t)
            if (b.aliveAfter(t)) expected[size_t(t)] += b.size;
    }
    ASSERT_GT(kept, 0u);
    ASSERT_LT(kept, all.size());
    EXPECT_EQ(f.allocated, expected);
    EXPECT_EQ(f.bands.size(), in_range);
    const auto peak = std::max_element(expected.begin() + filter.first_entry,
                                       expected.begin() + filter.last_entry + 1);
    EXPECT_EQ(f.peak_bytes, *peak);
    EXPECT_EQ(f.peak_entry, peak - expected.begin());
    int64_t alive = 0;
    for (const StackBytes& b : aliveAfter(f, f.peak_entry)) {
        alive += b.bytes;
        EXPECT_TRUE(matching[b.stack]);
        EXPECT_NE(stackText(s, b.stack).find(frame.substr(0, frame.rfind(':'))), std::string::npos);
    }
    EXPECT_EQ(alive, f.peak_bytes);
    // The timeline draws that range and peak; its bands are the filter's.
    const ActiveTimeline t = activeTimeline(s, device, 15000, filter);
    EXPECT_EQ(t.first, filter.first_entry);
    EXPECT_EQ(t.last, filter.last_entry);
    EXPECT_EQ(t.peak, f.peak_bytes);
    for (const ActiveBand& b : t.bands)
        EXPECT_GE(b.size, filter.min_bytes);
}

TEST_P(FilterFixture, TheFlameGraphAddsUp) {
    const int device = 0;
    const int64_t entry = summarizeDevice(s, device).peak_entry;
    const std::vector<StackBytes> alive = aliveAt(s, device, entry);
    const MemoryFlame flame = memoryFlame(s, alive);
    int64_t total = 0;
    size_t deepest = 0;
    for (const StackBytes& b : alive) {
        total += b.bytes;
        deepest = std::max(deepest, s.stackSize(b.stack));
    }
    EXPECT_EQ(flame.total(), total);
    EXPECT_EQ(size_t(flame.depth), deepest);
    // Each node: its children and its own allocations make its bytes, and the
    // children lie side by side from its left edge, widest first.
    std::vector<int64_t> children(flame.nodes.size(), 0), next(flame.nodes.size(), 0);
    for (size_t i = 0; i < flame.nodes.size(); ++i)
        next[i] = flame.nodes[i].offset;
    for (size_t i = 1; i < flame.nodes.size(); ++i) {
        const FlameNode& n = flame.nodes[i];
        ASSERT_GE(n.parent, 0);
        ASSERT_LT(size_t(n.parent), i); // parents first
        EXPECT_EQ(n.depth, flame.nodes[size_t(n.parent)].depth + 1);
        EXPECT_EQ(n.offset, next[size_t(n.parent)]);
        next[size_t(n.parent)] += n.bytes;
        children[size_t(n.parent)] += n.bytes;
    }
    for (size_t i = 0; i < flame.nodes.size(); ++i)
        EXPECT_EQ(children[i] + flame.nodes[i].self, flame.nodes[i].bytes) << flame.nodes[i].frame;
    // The largest stack's outermost frame is a child of the root.
    const std::string outer =
        s.frameText(s.frameOf(alive.front().stack, s.stackSize(alive.front().stack) - 1));
    bool found = false;
    for (const FlameNode& n : flame.nodes)
        found |= n.depth == 1 && n.frame == outer;
    EXPECT_TRUE(found);
    // The table of the widest rows keeps tree order: a row's parent is above it.
    const table::TableSpec rows = snapshotFlameTable(s, device, entry, {}, 25);
    ASSERT_EQ(rows.rows.size(), std::min<size_t>(25, flame.nodes.size()));
    EXPECT_EQ(rows.rows[0][2].value, double(total));
    for (size_t r = 1; r < rows.rows.size(); ++r)
        EXPECT_LE(rows.rows[r][0].value, rows.rows[r - 1][0].value + 1);
}

// What was alive grouped three ways holds the same bytes; a user-frame row
// is one frame's, a size row is its blocks of that size.
TEST_P(FilterFixture, AliveGroupingsHoldTheSameBytes) {
    const int device = 0;
    const int64_t entry = summarizeDevice(s, device).peak_entry;
    int64_t expected = 0;
    for (const StackBytes& b : aliveAt(s, device, entry))
        expected += b.bytes;
    std::map<std::string, int64_t> by_frame;
    for (const StackBytes& b : aliveAt(s, device, entry))
        by_frame[userFrame(s, b.stack)] += b.bytes;
    for (AliveGrouping g : {AliveGrouping::Stack, AliveGrouping::UserFrame, AliveGrouping::Size}) {
        const table::TableSpec t = snapshotAliveTable(s, device, entry, {}, g);
        const size_t frame_col = g == AliveGrouping::Stack ? 3 : g == AliveGrouping::Size ? 5 : 4;
        int64_t total = 0;
        for (const auto& row : t.rows) {
            total += int64_t(row[0].value);
            if (g == AliveGrouping::Size) EXPECT_EQ(row[0].value, row[2].value * row[3].value);
            if (g == AliveGrouping::UserFrame)
                EXPECT_EQ(int64_t(row[0].value), by_frame[row[frame_col].text])
                    << row[frame_col].text;
        }
        EXPECT_EQ(total, expected) << int(g);
        if (g == AliveGrouping::UserFrame) EXPECT_EQ(t.rows.size(), by_frame.size());
        for (size_t r = 1; r < t.rows.size(); ++r)
            EXPECT_GE(t.rows[r - 1][0].value, t.rows[r][0].value); // most bytes first
    }
    EXPECT_THROW(aliveGroupingFrom("colour"), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Generated, FilterFixture,
                         ::testing::Values("p2_seed1", "p5_seed2", "p4_seed3"));

// The unwinder's and the interpreter's own frames are left out of stacks and
// flame graphs, as PyTorch's viewers leave them out (_frame_filter).
TEST(SnapshotFilter, ViewersFramesAreThoseShown) {
    MemorySnapshot s;
    auto text = [&](const std::string& t) {
        s.strings.push_back(t);
        return uint32_t(s.strings.size() - 1);
    };
    s.frames = {{text("forward"), text("/home/u/model.py"), 12},
                {text("CapturedTraceback::gather"), text("??"), 0},
                {text("_PyEval_EvalFrameDefault"), text("Python/ceval.c"), 0},
                {text("main"), text("/home/u/train.py"), 3}};
    s.stack_begin = {0, 0, 4}; // stack 1, innermost first
    s.stack_frames = {1, 0, 2, 3};
    EXPECT_EQ(stackText(s, 1), "train.py:3:main;model.py:12:forward");
    const MemoryFlame flame = memoryFlame(s, {{1, 4096, 1}});
    ASSERT_EQ(flame.nodes.size(), 3u); // all, main, forward
    EXPECT_EQ(flame.nodes[2].frame, "model.py:12:forward");
    EXPECT_EQ(flame.nodes[2].self, 4096);
}

TEST(SnapshotFilter, TextsAreParsedOrNamed) {
    EXPECT_EQ(parseByteSize("4096"), 4096);
    EXPECT_EQ(parseByteSize("512K"), 512 * 1024);
    EXPECT_EQ(parseByteSize("1.5 MiB"), 3 * 512 * 1024);
    EXPECT_EQ(parseByteSize("2GB"), int64_t(2) << 30);
    EXPECT_EQ(parseByteSize("12 bytes"), 12);
    for (const char* bad : {"", "MiB", "-1", "3 apples", "1e30"})
        EXPECT_FALSE(parseByteSize(bad)) << bad;
    const SnapshotFilter f = parseSnapshotFilter({"1MiB", "model.py", "100:"});
    EXPECT_EQ(f.min_bytes, 1 << 20);
    EXPECT_EQ(f.frame_text, "model.py");
    EXPECT_EQ(f.first_entry, 100);
    EXPECT_EQ(f.last_entry, -1);
    EXPECT_EQ(parseSnapshotFilter({"", "", ":50"}).last_entry, 50);
    EXPECT_EQ(parseSnapshotFilter({"", "", "7"}).first_entry, 7);
    EXPECT_TRUE(parseSnapshotFilter({}).empty());
    auto message = [](const SnapshotFilterText& text) {
        try {
            parseSnapshotFilter(text, "Min size", "Entries");
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(message({"big", "", ""}).find("Min size is 'big'"), std::string::npos);
    EXPECT_NE(message({"", "", "a:b"}).find("Entries is 'a:b'"), std::string::npos);
    EXPECT_NE(message({"", "", "9:3"}).find("comes before"), std::string::npos);
    const MemorySnapshot s = readMemorySnapshot(kDir + "p4_seed3.pickle");
    SnapshotFilter past;
    past.first_entry = int64_t(s.traceSize(0)) + 5;
    EXPECT_THROW(filterAllocations(s, 0, past), std::invalid_argument);
}

TEST(SnapshotFilter, CommandsTakeTheFilterAndNameABadValue) {
    MemoryStatsOptions o;
    o.file = kDir + "p5_seed2.pickle";
    o.view = "flame";
    o.device = 0;
    o.format = "csv";
    std::ostringstream out, err;
    ASSERT_EQ(runMemoryStats(o, out, err), 0) << err.str();
    EXPECT_NE(out.str().find("depth,frame,bytes"), std::string::npos);
    o.view = "peak";
    o.min_size = "4MiB";
    o.entries = "10:400";
    std::ostringstream filtered;
    ASSERT_EQ(runMemoryStats(o, filtered, err), 0) << err.str();
    EXPECT_NE(filtered.str(), out.str());
    o.group = "size";
    std::ostringstream by_size;
    ASSERT_EQ(runMemoryStats(o, by_size, err), 0) << err.str();
    EXPECT_NE(by_size.str().find("bytes,pct,blocks,size,stacks,frame,stack"), std::string::npos);
    o.group = "colour";
    err.str("");
    EXPECT_EQ(runMemoryStats(o, out, err), 2);
    EXPECT_NE(err.str().find("--group is 'colour'"), std::string::npos);
    o.group = "stack";
    o.min_size = "lots";
    err.str("");
    EXPECT_EQ(runMemoryStats(o, out, err), 2);
    EXPECT_NE(err.str().find("--min-size is 'lots'"), std::string::npos);
    o.min_size.clear();
    o.entries = "5:999999999";
    err.str("");
    EXPECT_EQ(runMemoryStats(o, out, err), 2);
    EXPECT_NE(err.str().find("not in device 0's trace"), std::string::npos);
}

} // namespace
} // namespace ts
