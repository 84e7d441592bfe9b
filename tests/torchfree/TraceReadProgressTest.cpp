// Reading a trace file reports how far it got and stops when asked to:
// reports are monotonic and end at the file size (plain and gzip), a cancel
// ends the read at once with TraceReadCancelled and no trace.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <type_traits>
#include <utility>
#include <vector>

#include <unistd.h>
#include <zlib.h>

#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

using Report = std::pair<uint64_t, uint64_t>;

static_assert(!std::is_base_of_v<TraceReadError, TraceReadCancelled>,
              "a cancel must not look like a read error");

// `events` complete events, ~100 bytes of JSON each.
std::string traceText(int events) {
    std::string text = "{\"traceEvents\": [\n";
    for (int i = 0; i < events; ++i) {
        if (i) text += ",\n";
        text += R"({"ph": "X", "cat": "cpu_op", "name": "aten::op_)" + std::to_string(i % 17) +
                R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(i * 10) +
                R"(, "dur": 5, "args": {"External id": )" + std::to_string(i) + "}}";
    }
    return text + "\n]}\n";
}

class TraceReadProgress : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("trainscope_read_progress_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
        text_ = traceText(2000);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::filesystem::path plain() {
        const auto path = dir_ / "trace.json";
        std::ofstream(path, std::ios::binary) << text_;
        return path;
    }
    std::filesystem::path gzip() {
        const auto path = dir_ / "trace.json.gz";
        gzFile f = gzopen(path.string().c_str(), "wb");
        EXPECT_NE(f, nullptr);
        gzwrite(f, text_.data(), static_cast<unsigned>(text_.size()));
        gzclose(f);
        return path;
    }
    // Reads with 16 KB chunks, recording every report; `stop_after` reports
    // (0: never) the callback asks to cancel.
    Trace read(const std::filesystem::path& path, size_t stop_after = 0) {
        ReadProgress progress;
        progress.chunk_bytes = 16 << 10;
        progress.report = [this, stop_after](uint64_t done, uint64_t total) {
            reports_.emplace_back(done, total);
            return stop_after == 0 || reports_.size() < stop_after;
        };
        return readChromeTraceFile(path, progress);
    }
    void expectMonotonicToTheEnd(const std::filesystem::path& path) {
        const uint64_t size = std::filesystem::file_size(path);
        ASSERT_GE(reports_.size(), 3u) << "one report per chunk and one at the end";
        for (size_t i = 0; i < reports_.size(); ++i) {
            EXPECT_EQ(reports_[i].second, size) << i;
            EXPECT_LE(reports_[i].first, size) << i;
            if (i > 0) {
                EXPECT_GE(reports_[i].first, reports_[i - 1].first) << i;
            }
        }
        EXPECT_EQ(reports_.back().first, size);
        EXPECT_LT(reports_.front().first, size);
    }

    std::filesystem::path dir_;
    std::string text_;
    std::vector<Report> reports_;
};

TEST_F(TraceReadProgress, PlainFileReportsMonotonicallyUpToItsSize) {
    const auto path = plain();
    const Trace trace = read(path);
    EXPECT_EQ(trace.events.size(), 2000u);
    expectMonotonicToTheEnd(path);
    // ~200 KB in 16 KB chunks: a report per chunk, not per event.
    EXPECT_LE(reports_.size(), text_.size() / (16 << 10) + 3);
}

TEST_F(TraceReadProgress, GzipReportsCompressedBytesOfTheFileSize) {
    const auto path = gzip();
    ASSERT_LT(std::filesystem::file_size(path), text_.size());
    const Trace trace = read(path);
    EXPECT_EQ(trace.events.size(), 2000u);
    expectMonotonicToTheEnd(path);
}

TEST_F(TraceReadProgress, CancelStopsTheReadWithNoTrace) {
    for (const auto& path : {plain(), gzip()}) {
        reports_.clear();
        EXPECT_THROW(read(path, 2), TraceReadCancelled) << path;
        // Stopped at the report that said no: nothing was read after it.
        EXPECT_EQ(reports_.size(), 2u) << path;
        EXPECT_LT(reports_.back().first, reports_.back().second) << path;
    }
}

TEST_F(TraceReadProgress, CancelOnTheLastReportStillReturnsNothing) {
    const auto path = plain();
    read(path);
    const size_t all = reports_.size();
    reports_.clear();
    EXPECT_THROW(read(path, all), TraceReadCancelled);
    EXPECT_EQ(reports_.size(), all);
}

TEST_F(TraceReadProgress, ErrorsStayErrorsWithProgress) {
    const auto path = dir_ / "truncated.json";
    std::ofstream(path, std::ios::binary) << text_.substr(0, text_.size() / 2);
    try {
        read(path);
        FAIL() << "expected TraceReadError";
    } catch (const TraceReadError& e) {
        EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
    }
    const auto empty = dir_ / "empty.json";
    std::ofstream(empty, std::ios::binary) << "  \n";
    EXPECT_THROW(read(empty), TraceReadError);
}

TEST_F(TraceReadProgress, NoCallbackReadsAsBefore) {
    const Trace trace = readChromeTraceFile(plain());
    EXPECT_EQ(trace.events.size(), 2000u);
    // Parsing text in one go and a file in chunks build the same trace.
    const Trace same = parseChromeTrace(text_, "text");
    EXPECT_EQ(same.events.size(), trace.events.size());
    EXPECT_EQ(same.events.back().start_ns, trace.events.back().start_ns);
}

} // namespace
} // namespace ts
