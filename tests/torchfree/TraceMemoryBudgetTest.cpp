// A trace too large for the memory this process may use is refused before
// it is read, naming the file, what it needs and what is available.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "trace/ChromeTraceReader.h"
#include "trace/TraceMemoryBudget.h"
#include "trace/TraceReadError.h"

namespace {

namespace fs = std::filesystem;

// TRAINSCOPE_MEMORY_LIMIT for one scope.
class MemoryLimit {
public:
    explicit MemoryLimit(const char* value) { ::setenv("TRAINSCOPE_MEMORY_LIMIT", value, 1); }
    ~MemoryLimit() { ::unsetenv("TRAINSCOPE_MEMORY_LIMIT"); }
};

fs::path writeFile(const std::string& name, const std::string& bytes) {
    const fs::path path = fs::temp_directory_path() / ("trainscope_budget_" + name);
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// A trace of about `bytes` bytes: one event padded by a long name.
std::string traceOf(size_t bytes) {
    return R"({"traceEvents": [{"ph": "X", "name": ")" + std::string(bytes, 'a') +
           R"(", "ts": 1, "dur": 1, "pid": 1, "tid": 1}]})";
}

} // namespace

TEST(TraceMemoryBudget, AReadNeedsAboutSixTenthsOfTheJson) {
    EXPECT_EQ(ts::traceReadBytes(1000, 0), 600u);
    EXPECT_EQ(ts::traceReadBytes(100, 10000), 6000u); // gzip: its uncompressed size
    EXPECT_EQ(ts::traceReadBytes(5000, 100), 12000u); // a wrapped size: at least 4x the file
}

TEST(TraceMemoryBudget, TheMachineAndTheUserSetTheBudget) {
    const ts::MemoryBudget machine = ts::memoryBudget();
    EXPECT_GT(machine.bytes, 0u);
    EXPECT_LT(machine.bytes, UINT64_MAX) << "MemAvailable should be known on Linux";
    const MemoryLimit limit("2M");
    const ts::MemoryBudget user = ts::memoryBudget();
    EXPECT_EQ(user.bytes, 2u << 20);
    EXPECT_NE(user.source.find("TRAINSCOPE_MEMORY_LIMIT"), std::string::npos);
}

TEST(TraceMemoryBudget, ATraceThatCannotFitIsRefusedBeforeItIsRead) {
    const fs::path path = writeFile("big.json", traceOf(3u << 20));
    {
        const MemoryLimit limit("1M");
        try {
            ts::readChromeTraceFile(path);
            FAIL() << "read a trace that does not fit";
        } catch (const ts::TraceReadError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(path.string() + ": this trace (3 MB) needs about 2 MB of "
                                                "memory to read, and 1 MB is allowed by "
                                                "TRAINSCOPE_MEMORY_LIMIT"),
                      std::string::npos)
                << what;
        }
    }
    {
        const MemoryLimit off("0"); // the user's way to try anyway
        EXPECT_EQ(ts::readChromeTraceFile(path).events.size(), 1u);
    }
    EXPECT_EQ(ts::readChromeTraceFile(path).events.size(), 1u); // fits this machine
}

TEST(TraceMemoryBudget, AGzipTraceIsJudgedByItsUncompressedSize) {
    // A 20-byte "gzip" whose trailer says 100 MB: refused under 10 MB
    // before the (broken) stream is even opened.
    std::string gz = "\x1f\x8b";
    gz += std::string(14, '\0');
    const uint32_t size = 100u << 20;
    for (int shift = 0; shift < 32; shift += 8)
        gz += char((size >> shift) & 0xff);
    const fs::path path = writeFile("big.json.gz", gz);
    const MemoryLimit limit("10M");
    try {
        ts::readChromeTraceFile(path);
        FAIL() << "read a gzip trace that does not fit";
    } catch (const ts::TraceReadError& e) {
        EXPECT_NE(std::string(e.what()).find("needs about 60 MB"), std::string::npos) << e.what();
    }
}
