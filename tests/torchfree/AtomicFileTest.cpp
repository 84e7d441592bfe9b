// Atomic writes: while a file is written it has no name in its directory
// (so a process killed mid-write leaves nothing), a failed write leaves no
// file, and the temporaries dead writers left are cleaned up.
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "util/AtomicFile.h"

namespace {

namespace fs = std::filesystem;

std::set<std::string> names(const fs::path& dir) {
    std::set<std::string> out;
    for (const auto& entry : fs::directory_iterator(dir))
        out.insert(entry.path().filename().string());
    return out;
}

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A pid that no process has now: a child that has exited and been reaped.
pid_t deadPid() {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    ::waitpid(child, nullptr, 0);
    return child;
}

} // namespace

TEST(AtomicFile, AFileBeingWrittenHasNoNameUntilItIsWhole) {
    const auto dir = ts::test::freshDir("atomic_unnamed");
    std::ofstream(dir / "run.json") << "old";
    ts::writeAtomically(dir / "run.json", [&](const fs::path& tmp) {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << "half";
        out.flush();
        // Killed here, the directory would hold only what it held before.
        EXPECT_EQ(names(dir), std::set<std::string>{"run.json"});
        EXPECT_EQ(read(dir / "run.json"), "old");
        out << " and whole";
    });
    EXPECT_EQ(names(dir), std::set<std::string>{"run.json"});
    EXPECT_EQ(read(dir / "run.json"), "half and whole");

    ts::writeFileAtomically(dir / "new.json", "{}\n");
    EXPECT_EQ(read(dir / "new.json"), "{}\n");
    EXPECT_EQ(names(dir), (std::set<std::string>{"new.json", "run.json"}));
}

TEST(AtomicFile, AFailedWriteLeavesTheOldFileAndNothingElse) {
    const auto dir = ts::test::freshDir("atomic_failed");
    std::ofstream(dir / "best.pt") << "previous";
    EXPECT_THROW(ts::writeAtomically(dir / "best.pt",
                                     [](const fs::path& tmp) {
                                         std::ofstream(tmp) << "partial";
                                         throw std::runtime_error("disk full");
                                     }),
                 std::runtime_error);
    EXPECT_EQ(names(dir), std::set<std::string>{"best.pt"});
    EXPECT_EQ(read(dir / "best.pt"), "previous");
    EXPECT_THROW(ts::writeFileAtomically(dir / "missing" / "x.json", "{}"), std::exception);
}

TEST(AtomicFile, TemporariesOfDeadWritersAreRemovedAndLiveOnesKept) {
    const auto dir = ts::test::freshDir("atomic_stale");
    const std::string dead = std::to_string(deadPid());
    const std::string own = std::to_string(::getpid());
    const std::vector<std::string> files = {"best.pt.tmp-" + dead, "run.json.tmp-" + dead,
                                            "final.pt.tmp-" + own, "notes.tmp-abc",
                                            ".tmp-" + dead,        "steps.csv"};
    for (const std::string& name : files)
        std::ofstream(dir / name) << "x";
    EXPECT_EQ(ts::removeStaleTempFiles(dir), 2);
    EXPECT_EQ(names(dir), (std::set<std::string>{"final.pt.tmp-" + own, "notes.tmp-abc",
                                                 ".tmp-" + dead, "steps.csv"}));
    EXPECT_EQ(ts::removeStaleTempFiles(dir / "missing"), 0);
}
