// The trace commands' progress line: nothing off a terminal, nothing for a
// read that ends quickly, and a line that is erased when the read ends; in
// megabytes for a trace, in files for a rank folder.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "inspect/ReadProgressLine.h"

namespace ts {
namespace {

constexpr uint64_t kMB = uint64_t(1) << 20;

TEST(ReadProgressLine, NothingWhenNotATerminal) {
    std::ostringstream err;
    EXPECT_FALSE(readProgressLine("big.json", err, false).report);
}

TEST(ReadProgressLine, QuickReadPrintsNothing) {
    std::ostringstream err;
    const ReadProgress progress = readProgressLine("big.json", err, true);
    ASSERT_TRUE(progress.report);
    EXPECT_TRUE(progress.report(kMB, 2 * kMB));
    EXPECT_TRUE(progress.report(2 * kMB, 2 * kMB));
    EXPECT_EQ(err.str(), "");
}

TEST(ReadProgressLine, SlowReadShowsMegabytesAndErasesTheLine) {
    std::ostringstream err;
    const ReadProgress progress = readProgressLine("big.json", err, true);
    std::this_thread::sleep_for(std::chrono::milliseconds(350));
    EXPECT_TRUE(progress.report(412 * kMB, 1024 * kMB));
    EXPECT_EQ(err.str(), "\rreading big.json: 412/1024 MB (40%)");
    EXPECT_TRUE(progress.report(1024 * kMB, 1024 * kMB));
    const std::string erased = "\r" + std::string(35, ' ') + "\r";
    EXPECT_EQ(err.str().substr(err.str().size() - erased.size()), erased);
}

TEST(ReadProgressLine, ARankFolderCountsItsFiles) {
    std::ostringstream err;
    EXPECT_FALSE(rankFilesProgressLine("ranks/", err, false).report);
    const ReadProgress progress = rankFilesProgressLine("ranks/", err, true);
    std::this_thread::sleep_for(std::chrono::milliseconds(350));
    EXPECT_TRUE(progress.report(312, 1024));
    EXPECT_EQ(err.str(), "\rreading ranks/: 312/1024 rank files (30%)");
    EXPECT_TRUE(progress.report(1024, 1024));
    const std::string erased = "\r" + std::string(41, ' ') + "\r";
    EXPECT_EQ(err.str().substr(err.str().size() - erased.size()), erased);
}

} // namespace
} // namespace ts
