// Inputs the fuzz targets (fuzz/, docs/reliability.md "Fuzzing") found to
// crash a reader, kept as tests: each must now be refused with the reader's
// own exception, whose message names what is wrong. The minimized inputs
// are also in tests/data/fuzz_regressions/ and in the targets' seed corpora.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "EngineTestSupport.h"
#include "TestPaths.h"
#include "config/ConfigError.h"
#include "config/ConfigJson.h"
#include "report/CompareInputs.h"
#include "report/RunDirectory.h"
#include "report/StepsCsv.h"
#include "snapshot/SnapshotReader.h"
#include "trace/FastTraceReader.h"
#include "trace/TraceReadError.h"

namespace ts {
namespace {

using namespace std::string_literals;

// fuzz_config: `--set lr=<0xff>`. The value did not parse as JSON, so it
// was kept as a string that is not UTF-8, and the type error's message
// (which dumps the value as JSON) threw nlohmann's type_error instead.
TEST(FuzzRegression, SetValueThatIsNotUtf8IsAConfigError) {
    ExperimentConfig config;
    for (const std::string& assignment : {"lr=\xff"s, "name=caf\xe9"s, "\xff=1"s}) {
        try {
            applyOverride(config, assignment);
            FAIL() << "accepted " << assignment;
        } catch (const ConfigError& e) {
            EXPECT_NE(std::string(e.what()).find("not valid UTF-8"), std::string::npos) << e.what();
        }
    }
    // Valid UTF-8 is still taken as it is.
    applyOverride(config, "name=caf\xc3\xa9");
    EXPECT_EQ(config.name, "caf\xc3\xa9");
}

// fuzz_config: `--set batch_size=1e4040`. nlohmann parses the number and
// throws out_of_range (not parse_error), which escaped applyOverride.
TEST(FuzzRegression, SetNumberTooLargeForJsonIsAConfigError) {
    ExperimentConfig config;
    try {
        applyOverride(config, "batch_size=1e4040");
        FAIL() << "accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("batch_size"), std::string::npos) << e.what();
    }
}

// fuzz_config (clean-clone CI of cb44550): a config file holding the number
// 1e404. Parsing the file threw out_of_range, which only parse_error was
// caught for; run.json, presets and --config had the same catch.
TEST(FuzzRegression, FileNumberTooLargeForJsonIsABadInputError) {
    const std::string file =
        std::string(TRAINSCOPE_TEST_DATA_DIR) + "/fuzz_regressions/config-number-overflow.json";
    try {
        loadConfigFile(file);
        FAIL() << "accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    }
    const auto dir = std::filesystem::temp_directory_path() / "trainscope_fuzz_run_overflow";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "run.json") << "{\"format\": 1e404}";
    EXPECT_THROW(loadRun(dir, false), RunFormatError);
}

// The message of a refused read, "" when the text reads.
std::string traceError(const std::string& text, const TraceReadOptions& options) {
    try {
        parseChromeTrace(text, "t.json", options);
        return "";
    } catch (const TraceReadError& e) {
        return e.what();
    }
}

// fuzz_chrome_trace: `["":],{}]`. The fast reader's chunk parser left a
// string value unread, and simdjson skipped it as a key (eating the ":"),
// so the fast path found a list without events where the sequential
// reader refuses the JSON. Found first in a Kineto trace whose first event
// was `{"ph": "Xid": 2}}`, which the fast path read as a trace.
TEST(FuzzRegression, FastReaderRefusesAStringFollowedByAColon) {
    if (!fastTraceReaderAvailable()) GTEST_SKIP() << "built without simdjson";
    std::ifstream in(std::string(TRAINSCOPE_TEST_DATA_DIR) +
                         "/fuzz_regressions/chrome_trace-fast-reader-accepts-malformed.json",
                     std::ios::binary);
    const std::string found(std::istreambuf_iterator<char>(in), {});
    ASSERT_EQ(found, R"(["":],{}])");
    const std::string kineto =
        R"({"schemaVersion": 1, "traceEvents": [{"ph": "Xid": 2}}, {"ph": "X", "name": "a", "ts": 1, "dur": 1}]})";
    TraceReadOptions sequential;
    sequential.sequential = true;
    for (const std::string& text : {found, kineto}) {
        const std::string expected = traceError(text, sequential);
        EXPECT_NE(expected.find("unexpected ':'"), std::string::npos) << expected;
        for (size_t block : {64, 256, 4096}) {
            TraceReadOptions fast;
            fast.block_bytes = block;
            fast.min_parallel_bytes = 0;
            fast.workers = 1;
            EXPECT_EQ(traceError(text, fast), expected) << text << ", block " << block;
        }
    }
}

// fuzz_run_dir (clean-clone CI of 0c2f249): run.json's environment holding
// "logical_cores": 8.9e95. nlohmann's get<int>() of a double out of range is
// undefined behaviour (UBSan stopped there); every integer field of run.json
// is now read through intValue(), which refuses it naming the key.
TEST(FuzzRegression, RunJsonIntegerOutOfRangeIsARunFormatError) {
    const auto dir = test::freshDir("fuzz_run_dir_int");
    std::filesystem::copy_file(std::string(TRAINSCOPE_TEST_DATA_DIR) +
                                   "/fuzz_regressions/run_dir-int-out-of-range.json",
                               dir / run_files::kRunJson);
    try {
        loadRun(dir, false);
        FAIL() << "accepted";
    } catch (const RunFormatError& e) {
        EXPECT_NE(std::string(e.what()).find("'logical_cores' is 8.8"), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("run.json"), std::string::npos) << e.what();
    }
}

// fuzz_run_dir (clean-clone CI of cf2db27): ops.csv with a count of 1e20
// (an edited "calls" column). Converting a double beyond int64's range is
// undefined behaviour (UBSan stopped there); the integer columns are now
// range-checked and refused naming the line, the column and the text.
TEST(FuzzRegression, OpsCsvIntegerOutOfRangeIsARunFormatError) {
    const auto dir = test::freshDir("fuzz_ops_csv_int");
    const auto path = dir / run_files::kOpsCsv;
    for (const char* value : {"1e20", "-1e20", "nan", "inf"}) {
        SCOPED_TRACE(value);
        std::ofstream(path) << "name,calls,self_cpu_ns\naten::add,2,100\naten::mul," << value
                            << ",5\n";
        try {
            readOpsCsv(path);
            FAIL() << "accepted";
        } catch (const RunFormatError& e) {
            EXPECT_NE(std::string(e.what()).find("line 3: column calls is out of range (\"" +
                                                 std::string(value) + "\")"),
                      std::string::npos)
                << e.what();
        }
    }
    std::ofstream(path) << "name,calls,self_cpu_ns\naten::add,2,1e9\n";
    EXPECT_EQ(readOpsCsv(path).rows.at(0).self_cpu_ns, 1000000000);
}

// fuzz_run_dir (90 s run after the one above): steps.csv with an epoch of
// 3.2e50, converted to int: the same undefined behaviour, the same refusal.
TEST(FuzzRegression, StepsCsvIntegerOutOfRangeIsARunFormatError) {
    const auto dir = test::freshDir("fuzz_steps_csv_int");
    const auto path = dir / run_files::kStepsCsv;
    std::string header = stepsCsvHeader();
    if (!header.empty() && header.back() == '\n') header.pop_back();
    const auto columns = std::count(header.begin(), header.end(), ',') + 1;
    auto row = [&](const std::string& first) {
        std::string r = first;
        for (long c = 1; c < columns; ++c)
            r += ",0";
        return r + "\n";
    };
    std::ofstream(path) << header << "\n" << row("1") << row("3.2e50") << row("2");
    try {
        readStepsCsv(path);
        FAIL() << "accepted";
    } catch (const RunFormatError& e) {
        EXPECT_NE(std::string(e.what()).find(":3: column 1 is out of range: 3.2e+50"),
                  std::string::npos)
            << e.what();
    }
    std::ofstream(path) << header << "\n" << row("1") << row("2");
    EXPECT_EQ(readStepsCsv(path).at(1).epoch, 2);
}

// fuzz_memory_snapshot (issue 62's run): `}` "" `]` MARK SETITEM TUPLE. The
// SETITEM took the list and the key from below the MARK, so the stack fell
// below it and the TUPLE read items past the stack's end (a heap overflow
// under ASan). A MARK begins a stack of its own, as CPython's unpickler
// keeps it: what lies below it is out of reach until it is closed.
TEST(FuzzRegression, SnapshotOpcodesCannotReachBelowAMark) {
    const std::string file = std::string(TRAINSCOPE_TEST_DATA_DIR) +
                             "/fuzz_regressions/memory_snapshot-setitem-below-mark.pickle";
    try {
        readMemorySnapshot(file);
        FAIL() << "accepted";
    } catch (const SnapshotError& e) {
        EXPECT_NE(std::string(e.what()).find("SETITEM without a dict"), std::string::npos)
            << e.what();
    }
    for (const std::string& bytes : {"}\x8c\x00](at"s, "\x80\x04(]a."s, "]\x8c\x00(\x85."s}) {
        EXPECT_THROW(parseMemorySnapshot(bytes, "below-mark.pickle"), SnapshotError) << bytes;
    }
}

} // namespace
} // namespace ts
