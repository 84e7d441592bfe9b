// The trace commands' threads under ThreadSanitizer, beyond the reader's own
// tests (FastTraceReaderTest, TraceIndexTest, built into the same program):
// `trace-stats` reads a trace of more than 16 MB in parallel, analyses it
// (the GPU analysis fills its tables on a work queue) while the trace's
// index is written on a thread beside it (inspect/TraceInput), and the next
// run reads that index on threads; both print the same views. The
// diagnoses of a rank folder analyse its ranks on the pool.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "TestPaths.h"
#include "TestTraces.h"
#include "inspect/TraceStatsCommand.h"

using namespace ts;

namespace {

std::string viewOf(const std::filesystem::path& trace, const std::string& view, bool& from_index) {
    TraceStatsOptions options;
    options.file = trace.string();
    options.view = view;
    options.timings = true; // says whether the trace came from its index
    std::ostringstream out, err;
    EXPECT_EQ(runTraceStats(options, out, err), 0) << err.str();
    from_index = err.str().find("from its index") != std::string::npos;
    return out.str();
}

} // namespace

TEST(TraceThreads, AnalysedBesideItsIndexWriterThenReopenedFromTheIndex) {
    const auto dir = std::filesystem::path(::testing::TempDir()) / "tsan_trace_threads";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    ASSERT_EQ(setenv("TRAINSCOPE_CACHE_DIR", (dir / "cache").c_str(), 1), 0);
    const auto trace = ts::testing::writePaddedH100Trace(TRAINSCOPE_TEST_DATA_DIR, dir);
    ASSERT_FALSE(trace.empty());
    for (const std::string view : {"overview", "kernels"}) {
        std::filesystem::remove_all(dir / "cache");
        bool from_index = true;
        const std::string fresh = viewOf(trace, view, from_index);
        EXPECT_FALSE(from_index);
        EXPECT_NE(fresh.find(view == "overview" ? "GPU utilization" : "Kernel"), std::string::npos)
            << fresh.substr(0, 400);
        const std::string again = viewOf(trace, view, from_index);
        EXPECT_TRUE(from_index) << "no index was kept for the second run";
        EXPECT_EQ(again, fresh) << view;
    }
}

// HTA's diagnoses of a rank folder: each rank read, analysed and dropped on
// the pool (inspect/DiagnosisPrinters), the figures of both ranks printed.
TEST(TraceThreads, EachDiagnosisOfARankFolderAnalysesItsRanksOnThePool) {
    const auto data = std::filesystem::path(TRAINSCOPE_TEST_DATA_DIR) / "distributed_hta";
    for (const std::string view : {"idle", "launches", "kernel-types", "queue", "memory-bw"}) {
        TraceStatsOptions options;
        options.file = data.string();
        options.view = view;
        options.format = "csv";
        std::ostringstream out, err;
        EXPECT_EQ(runTraceStats(options, out, err), 0) << view << ": " << err.str();
        EXPECT_NE(out.str().find("\n1,"), std::string::npos) << view << ": no row of rank 1";
    }
}
