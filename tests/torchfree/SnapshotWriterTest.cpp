// The snapshot generator (bench/memory/writer) against the reader
// (core/snapshot): a snapshot written with the generator's code, read back,
// gives the figures the generator's toy allocator kept as it ran (reserved,
// allocated, the peaks and their entry), which it knows from which block is
// which, not from the trace. And the generator writes the checked-in test
// snapshots byte for byte, as make_snapshot.py did.
#ifdef TRAINSCOPE_WITH_SNAPSHOT_WRITER
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "SnapshotWriter.h"
#include "TestPaths.h"
#include "snapshot/SnapshotAnalysis.h"
#include "snapshot/SnapshotReader.h"

namespace ts {
namespace {

std::string bytesOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Writes `spec` to a file of the test's own and gives what the writer knew.
snapgen::WrittenSnapshot writeTo(const std::string& path, const snapgen::SnapshotSpec& spec) {
    std::FILE* out = std::fopen(path.c_str(), "wb");
    EXPECT_NE(out, nullptr) << path;
    const snapgen::WrittenSnapshot written = snapgen::writeSnapshot(spec, out);
    std::fclose(out);
    return written;
}

class SnapshotWriterFixture : public ::testing::TestWithParam<int> {};

TEST_P(SnapshotWriterFixture, ReaderFindsTheFiguresTheAllocatorKept) {
    snapgen::SnapshotSpec spec;
    spec.seed = 17;
    spec.entries = 30000;
    spec.protocol = GetParam();
    spec.devices = 2;
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("ts_writer_p" + std::to_string(spec.protocol) + ".pickle"))
                                 .string();
    const snapgen::WrittenSnapshot written = writeTo(path, spec);
    ASSERT_EQ(std::filesystem::file_size(path), written.bytes);
    const MemorySnapshot s = readMemorySnapshot(path);
    std::filesystem::remove(path);
    EXPECT_EQ(s.protocol, spec.protocol);
    ASSERT_EQ(s.devices(), spec.devices);
    for (int d = 0; d < spec.devices; ++d) {
        SCOPED_TRACE("device " + std::to_string(d));
        const snapgen::DeviceTotals& want = written.devices[size_t(d)];
        const DeviceMemorySummary got = summarizeDevice(s, d);
        EXPECT_GT(want.peak_allocated_bytes, want.allocated_bytes / 2); // a plausible history
        EXPECT_GT(want.ooms, 0u);
        EXPECT_EQ(got.segments, want.segments);
        EXPECT_EQ(got.entries, want.entries);
        EXPECT_EQ(got.ooms, want.ooms);
        EXPECT_EQ(got.reserved_bytes, want.reserved_bytes);
        EXPECT_EQ(got.allocated_bytes, want.allocated_bytes);
        EXPECT_EQ(got.peak_allocated_bytes, want.peak_allocated_bytes);
        EXPECT_EQ(got.peak_entry, want.peak_entry);
        EXPECT_EQ(got.peak_reserved_bytes, want.peak_reserved_bytes);
    }
}

INSTANTIATE_TEST_SUITE_P(Protocols, SnapshotWriterFixture, ::testing::Values(2, 4, 5));

// Issue 62: a snapshot shaped like a training loop's (a bounded live set, so
// few segments) packs its trace entries tighter than the reader's room for
// one per 60 bytes of file held, and the entries' array grew: its old and
// new buffers touched 1.9x the entries' memory. Its figures are the
// allocator's, and its entries fit the room reserved from the file's size.
TEST(SnapshotWriter, ASteadyStateSnapshotReadsIntoTheRoomReserved) {
    snapgen::SnapshotSpec spec;
    spec.seed = 5;
    spec.entries = 200000;
    spec.max_live = 500;
    const std::string path =
        (std::filesystem::temp_directory_path() / "ts_writer_steady.pickle").string();
    const snapgen::WrittenSnapshot written = writeTo(path, spec);
    const MemorySnapshot s = readMemorySnapshot(path);
    std::filesystem::remove(path);
    const snapgen::DeviceTotals& want = written.devices[0];
    const DeviceMemorySummary got = summarizeDevice(s, 0);
    EXPECT_LT(got.segments, 1000u); // the unbounded allocator keeps ~5,000 here
    EXPECT_EQ(got.segments, want.segments);
    EXPECT_EQ(got.entries, want.entries);
    EXPECT_EQ(got.allocated_bytes, want.allocated_bytes);
    EXPECT_EQ(got.peak_allocated_bytes, want.peak_allocated_bytes);
    EXPECT_EQ(got.peak_entry, want.peak_entry);
    EXPECT_EQ(got.peak_reserved_bytes, want.peak_reserved_bytes);
    EXPECT_LT(double(written.bytes) / double(s.events.size()), 60.0);
    EXPECT_LE(s.events.capacity() * sizeof(AllocEvent), written.bytes);
    // The curve (made by a replay of its own) peaks where the summary says.
    const MemoryCurve& curve = memoryCurve(s, 0);
    ASSERT_EQ(curve.allocated.size(), s.traceSize(0));
    const auto top = std::max_element(curve.allocated.begin(), curve.allocated.end());
    EXPECT_EQ(*top, got.peak_allocated_bytes);
    EXPECT_EQ(top - curve.allocated.begin(), got.peak_entry);
    EXPECT_EQ(*std::max_element(curve.reserved.begin(), curve.reserved.end()),
              got.peak_reserved_bytes);
}

// tests/data/memory_snapshots/README.md: made by make_snapshot.py with these
// arguments; the C++ generator must write the same bytes (same draws, same
// opcodes, same memo and frames).
TEST(SnapshotWriter, WritesTheCheckedInSnapshotsByteForByte) {
    const std::string dir = std::string(TRAINSCOPE_TEST_DATA_DIR) + "/memory_snapshots/";
    struct Case {
        const char* name;
        uint64_t seed, entries;
        int protocol, devices;
    };
    for (const Case& c : {Case{"p2_seed1", 1, 1200, 2, 1}, Case{"p4_seed3", 3, 600, 4, 1},
                          Case{"p5_seed2", 2, 1200, 5, 2}}) {
        SCOPED_TRACE(c.name);
        const std::string path =
            (std::filesystem::temp_directory_path() / (std::string("ts_writer_") + c.name))
                .string();
        writeTo(path, {c.seed, c.entries, c.protocol, c.devices});
        EXPECT_TRUE(bytesOf(path) == bytesOf(dir + c.name + ".pickle"));
        std::filesystem::remove(path);
    }
}

} // namespace
} // namespace ts
#endif
