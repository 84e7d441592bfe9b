// Golden files of the reports, written from fixed in-memory inputs (the
// fixtures the report tests use), so every figure is exact: the comparison
// (report.md, comparison.csv), the sweep, ladder and prune reports, and the
// operator table. A change to any of these outputs shows up as a diff against
// tests/golden/; regenerate with TRAINSCOPE_UPDATE_GOLDEN=1 (see its README).
#include <gtest/gtest.h>

#include "CompareTestSupport.h"
#include "EngineTestSupport.h"
#include "GoldenFile.h"
#include "GoldenMask.h"
#include "LadderTestSupport.h"
#include "ProfTestSupport.h"
#include "PruneTestSupport.h"
#include "SweepTestSupport.h"
#include "analysis/OpStats.h"
#include "analysis/OpTableFormat.h"
#include "experiments/Ladder.h"
#include "experiments/LadderReport.h"
#include "experiments/PruneStudy.h"
#include "experiments/Sweep.h"
#include "experiments/SweepReport.h"
#include "report/CompareRuns.h"
#include "report/OpTables.h"

namespace {

using ts::test::expectMatchesGolden;
using ts::test::readTextFile;
using ts::test::withoutMarkdownImages;

// Points and rungs run in a temp folder; the reports name them as a user's
// `--out sweep` would, so the files do not depend on where the test ran.
template <typename Rows> void relativeRunDirs(Rows& rows, const std::filesystem::path& out) {
    for (auto& row : rows)
        if (!row.result.run_dir.empty()) row.result.run_dir = out / row.result.run_dir.filename();
}

} // namespace

TEST(GoldenReports, Comparison) {
    const auto base = ts::test::writeCompareRun("baseline", 32, 200, 30, true);
    const auto fast = ts::test::writeCompareRun("workers", 64, 300, 1, false);
    auto runs = ts::loadComparedRuns({base, fast});
    for (auto& run : runs)
        run.record.dir = "runs/" + run.label; // not the temp folder
    const auto dir = ts::test::freshDir("golden_compare");
    ts::writeComparison(runs, dir);
    // Charts are checked elsewhere (CompareTest, ReportPngTest); their links are left out.
    expectMatchesGolden("compare/report.md",
                        withoutMarkdownImages(readTextFile(dir / ts::compare_files::kReport)));
    expectMatchesGolden("compare/comparison.csv", readTextFile(dir / ts::compare_files::kCsv));
    expectMatchesGolden("compare/comparison.txt", ts::comparisonText(runs));
}

TEST(GoldenReports, Sweep) {
    // 16 and 32 run; 64 is predicted to need 690 MiB of 700 and is skipped.
    ts::test::FakePointRunner runner;
    runner.behavior = ts::test::linearMemory;
    runner.available_bytes = 700 * ts::test::kMiB;
    const auto dir = ts::test::freshDir("golden_sweep");
    auto result = ts::runSweep(ts::test::batchSweep("16,32,64"), runner, dir);
    relativeRunDirs(result.rows, "sweep");
    ts::writeSweepReport(result, dir);
    expectMatchesGolden("sweep/sweep.csv", readTextFile(dir / ts::sweep_files::kCsv));
    expectMatchesGolden("sweep/sweep.md",
                        withoutMarkdownImages(readTextFile(dir / ts::sweep_files::kMarkdown)));
    expectMatchesGolden("sweep/sweep.txt", ts::sweepTable(result));
}

TEST(GoldenReports, Ladder) {
    // On the 8-core test CPU: workers and the larger batch are kept,
    // channels-last is inside the margin, threads is slower, device rungs skip.
    ts::test::FakePointRunner runner;
    runner.behavior = ts::test::cpuLadderBehaviour;
    const auto dir = ts::test::freshDir("golden_ladder");
    auto result = ts::runLadder(ts::test::ladderSpec(), ts::test::cpuLadderContext(), runner, dir);
    relativeRunDirs(result.rows, "ladder");
    ts::writeLadderReport(result, dir);
    expectMatchesGolden("ladder/ladder.csv", readTextFile(dir / ts::ladder_files::kCsv));
    expectMatchesGolden("ladder/ladder.md",
                        withoutMarkdownImages(readTextFile(dir / ts::ladder_files::kMarkdown)));
    expectMatchesGolden("ladder/best_config.json",
                        readTextFile(dir / ts::ladder_files::kBestConfig));
    expectMatchesGolden("ladder/ladder.txt", ts::ladderTable(result));
}

TEST(GoldenReports, Prune) {
    const auto study = ts::test::constructedPruneStudy();
    const auto dir = ts::test::freshDir("golden_prune");
    ts::writePruneReport(study, dir);
    expectMatchesGolden("prune/prune_layers.csv", readTextFile(dir / ts::prune_files::kLayersCsv));
    expectMatchesGolden("prune/prune.md",
                        withoutMarkdownImages(readTextFile(dir / ts::prune_files::kMarkdown)));
    expectMatchesGolden("prune/prune.json", readTextFile(dir / ts::prune_files::kJson));
    expectMatchesGolden("prune/prune.txt", ts::pruneText(study));
}

TEST(GoldenReports, OperatorTableByShapes) {
    // Shapes column, no memory, device or FLOP columns.
    const auto table =
        ts::computeOpStats(ts::test::handBuiltTrace(), ts::OpGrouping::NameAndShapes);
    expectMatchesGolden("ops/hand_built_by_shapes.txt", ts::formatOpTableText(table));
    expectMatchesGolden("ops/hand_built_by_shapes.csv", ts::formatOpTableCsv(table));
}

TEST(GoldenReports, OperatorTableWithDeviceMemoryAndFlops) {
    // The sample table (memory and FLOP columns) with device time on the convolution.
    auto table = ts::test::sampleOpTable();
    table.rows[0].self_device_ns = 20'000'000;
    table.rows[0].device_total_ns = 22'000'000;
    table.rows[1].self_device_ns = table.rows[1].device_total_ns = 2'000'000;
    table.total_self_device_ns = 22'000'000;
    expectMatchesGolden("ops/sample_with_device.txt", ts::formatOpTableText(table));
    expectMatchesGolden("ops/sample_with_device.csv", ts::formatOpTableCsv(table));
    expectMatchesGolden("ops/sample_with_device_top2.txt", ts::formatOpTableText(table, 2));
}
