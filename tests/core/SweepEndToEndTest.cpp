// trainscope-cli sweep / ladder / compare / advise as a user runs them, on tiny
// synthetic data (ResNet-18, 16x16 images, a couple of steps per point).
#include <algorithm>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "CliChartFiles.h"
#include "CliRunner.h"
#include "EngineTestSupport.h"
#include "analysis/NcuCsv.h"

namespace {

using Result = ts::test::CliResult;

Result cli(const std::string& args) {
    return ts::test::runCli(args);
}

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

const char* kTiny = "--preset synthetic-smoke --set synthetic_samples=32 --set image_size=16 "
                    "--set threads=1 --no-progress";

} // namespace

TEST(SweepEndToEnd, TwoPointBatchSweepThenCompareAndAdvise) {
    const auto dir = ts::test::freshDir("cli_sweep");
    const auto r =
        cli(std::string("sweep ") + kTiny +
            " --key batch_size --values 8,4 --steps 1 --warmup 1 --repeat 2 --out " + dir.string());
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("[1/2] batch_size=4: ok"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("round 2, batch_size=4: "), std::string::npos) << r.output;
    const auto csv = ts::parseCsvRecords(readFile(dir / "sweep.csv"));
    ASSERT_EQ(csv.size(), 3u);
    const auto column = [&](const std::string& name) {
        const auto it = std::find(csv[0].begin(), csv[0].end(), name);
        EXPECT_NE(it, csv[0].end()) << name;
        return size_t(it - csv[0].begin());
    };
    EXPECT_EQ(csv[1][1], "4");
    EXPECT_EQ(csv[2][1], "8");
    for (size_t i = 1; i < csv.size(); ++i) {
        EXPECT_EQ(csv[i][column("status")], "ok") << csv[i].back();
        EXPECT_GT(std::stod(csv[i][column("images_per_sec")]), 0);
        EXPECT_GT(std::stoll(csv[i][column("memory_bytes")]), 0);
        EXPECT_EQ(csv[i][column("rounds")], "2");
        EXPECT_LE(std::stod(csv[i][column("images_per_sec_low")]),
                  std::stod(csv[i][column("images_per_sec")]));
    }
    EXPECT_TRUE(std::filesystem::exists(dir / "point_0_batch_size=4_round2" / "run.json"));
    const auto point = dir / "point_0_batch_size=4";
    const auto run = nlohmann::json::parse(readFile(point / "run.json"));
    EXPECT_EQ(run["summary"]["status"], "completed");
    EXPECT_EQ(run["summary"]["steps_completed"], 2);
    for (const char* png : {"sweep_images_per_sec.png", "sweep_memory.png"})
        ts::test::expectChartOrNote(r.output, dir, png, "sweep.md");

    const auto compare =
        cli("compare " + point.string() + " " + (dir / "point_1_batch_size=8").string() +
            " --out " + (dir / "compare").string());
    ASSERT_EQ(compare.code, 0) << compare.output;
    EXPECT_NE(readFile(dir / "compare" / "report.md").find("| batch_size | 4 | 8 |"),
              std::string::npos);
    const auto advise = cli("advise " + point.string());
    EXPECT_EQ(advise.code, 0) << advise.output;
    EXPECT_NE(advise.output.find("median step"), std::string::npos) << advise.output;
}

TEST(SweepEndToEnd, BadSweepInputExitsTwo) {
    auto r = cli(std::string("sweep ") + kTiny + " --key batch_sise --values 8");
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("batch_sise"), std::string::npos) << r.output;
    r = cli(std::string("sweep ") + kTiny + " --values 8,,16");
    EXPECT_EQ(r.code, 2) << r.output;
    r = cli("roofline --ncu /nonexistent.csv --peak-gflops 1 --peak-gbs 1");
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("/nonexistent.csv"), std::string::npos) << r.output;
    r = cli("prune --preset synthetic-smoke --weights /nonexistent.pt");
    EXPECT_EQ(r.code, 2) << r.output;
}
