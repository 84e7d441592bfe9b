// trainscope-cli ladder on tiny synthetic data: every rung is listed (run or
// skipped with a reason) and the report files are written.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "CliChartFiles.h"
#include "CliRunner.h"
#include "EngineTestSupport.h"
#include "analysis/NcuCsv.h"

TEST(LadderEndToEnd, CpuLadderOnTinySyntheticData) {
    const auto dir = ts::test::freshDir("cli_ladder");
    const auto [code, output] = ts::test::runCli(
        "ladder --preset synthetic-smoke --set synthetic_samples=32 --set image_size=16"
        " --set batch_size=4 --set threads=1 --steps 1 --warmup 1 --val-batches 1 --no-progress"
        " --rounds 2 --max-rounds 2"
        " --out " +
        dir.string());
    ASSERT_EQ(code, 0) << output;
    for (const char* text :
         {"baseline", "loader workers", "skipped: pinned memory only", "cuDNN", "Best:"})
        EXPECT_NE(output.find(text), std::string::npos) << text << "\n" << output;
    std::ifstream in(dir / "ladder.csv");
    std::ostringstream csv_text;
    csv_text << in.rdbuf();
    const auto csv = ts::parseCsvRecords(csv_text.str());
    ASSERT_EQ(csv.size(), 10u); // header + baseline + 8 rungs
    EXPECT_EQ(csv[1][3], "ok");
    EXPECT_EQ(csv[3][3], "skipped"); // pinned memory on CPU
    // The baseline against itself, two rounds: four runs.
    for (const char* run : {"best_1", "candidate_1", "best_2", "candidate_2"})
        EXPECT_TRUE(std::filesystem::exists(dir / "rung_0_baseline" / run / "run.json")) << run;
    EXPECT_NE(output.find("Noise floor: the baseline against itself over 2 rounds"),
              std::string::npos)
        << output;
    ts::test::expectChartOrNote(output, dir, "ladder_images_per_sec.png", "ladder.md");
    EXPECT_TRUE(std::filesystem::exists(dir / "best_config.json"));
}
