// prune.json and prune_layers.csv written by writePruneReport read back by
// readPruneReport (the GUI's Open… of a `trainscope-cli prune` directory).
#include <fstream>

#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "PruneTestSupport.h"
#include "experiments/PruneStudy.h"
#include "experiments/ReportReader.h"

using ts::test::constructedPruneStudy;

TEST(PruneReport, ReadsBackWhatWritePruneReportWrote) {
    const auto written = constructedPruneStudy();
    const auto dir = ts::test::freshDir("prune_report");
    ts::writePruneReport(written, dir);
    EXPECT_EQ(ts::reportKind(dir), ts::ReportKind::Prune);

    const auto read = ts::readPruneReport(dir);
    EXPECT_EQ(read.model, "resnet18");
    EXPECT_EQ(read.device, "cpu");
    EXPECT_EQ(read.weights, written.weights);
    EXPECT_EQ(read.pruned_weights, written.pruned_weights);
    EXPECT_EQ(read.verdict, written.verdict);
    EXPECT_DOUBLE_EQ(read.before.accuracy, 0.625);
    EXPECT_DOUBLE_EQ(read.after.accuracy, 0.5);
    EXPECT_EQ(read.after.samples, 64);
    EXPECT_EQ(read.latency_batch, 16);
    EXPECT_EQ(read.latency_runs, 5);
    EXPECT_DOUBLE_EQ(read.latency_before_ms, 12.5);
    EXPECT_DOUBLE_EQ(read.latency_after_ms, 12.75);
    EXPECT_DOUBLE_EQ(read.latency_before_spread_ms, 0.5);
    EXPECT_DOUBLE_EQ(read.latency_after_spread_ms, 0.25);
    EXPECT_DOUBLE_EQ(read.prune.amount, 0.5);
    EXPECT_TRUE(read.prune.structured);
    EXPECT_FALSE(read.prune.global);
    EXPECT_EQ(read.prune.norm, 2);
    EXPECT_TRUE(read.prune.include_linear);
    ASSERT_EQ(read.layers.size(), written.layers.size());
    for (size_t i = 0; i < read.layers.size(); ++i) {
        const auto& a = read.layers[i];
        const auto& b = written.layers[i];
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.shape, b.shape);
        EXPECT_EQ(a.params, b.params);
        EXPECT_EQ(a.zeros_before, b.zeros_before);
        EXPECT_EQ(a.zeros_after, b.zeros_after);
        EXPECT_EQ(a.channels, b.channels);
        EXPECT_EQ(a.channels_zeroed, b.channels_zeroed);
    }
    EXPECT_EQ(read.params(), written.params());
    EXPECT_EQ(read.zerosAfter(), written.zerosAfter());
}

TEST(PruneReport, BadFileIsNamed) {
    const auto dir = ts::test::freshDir("prune_report_bad");
    ts::writePruneReport(constructedPruneStudy(), dir);
    {
        std::ofstream out(dir / ts::prune_files::kJson, std::ios::trunc);
        out << "{ not json";
    }
    try {
        ts::readPruneReport(dir);
        ADD_FAILURE() << "a broken prune.json was read";
    } catch (const ts::ReportFormatError& e) {
        EXPECT_NE(std::string(e.what()).find(ts::prune_files::kJson), std::string::npos)
            << e.what();
    }

    ts::writePruneReport(constructedPruneStudy(), dir);
    {
        std::ofstream out(dir / ts::prune_files::kLayersCsv, std::ios::trunc);
        out << "layer,shape,params,zeros_before,zeros_after\nconv1.weight,64x3,lots,0,0\n";
    }
    try {
        ts::readPruneReport(dir);
        ADD_FAILURE() << "a broken prune_layers.csv was read";
    } catch (const ts::ReportFormatError& e) {
        EXPECT_NE(std::string(e.what()).find(ts::prune_files::kLayersCsv), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("lots"), std::string::npos) << e.what();
    }

    const auto empty = ts::test::freshDir("prune_report_missing");
    EXPECT_EQ(ts::reportKind(empty), ts::ReportKind::None);
    try {
        ts::readPruneReport(empty);
        ADD_FAILURE();
    } catch (const ts::ReportFormatError& e) {
        EXPECT_NE(std::string(e.what()).find(ts::prune_files::kJson), std::string::npos);
    }
}
