#include <fstream>

#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "report/RunDirectory.h"
#include "report/StepsCsv.h"

using namespace ts;

TEST(RunDirectory, RecorderWritesWhatLoadRunReads) {
    const auto dir = test::freshDir("recorder");
    RunInfo info;
    info.config = test::tinyConfig();
    info.env.torch_version = "1.13.1";
    info.env.cpu_features = {"avx2"};
    info.steps_per_epoch = 2;
    {
        RunRecorder recorder(dir);
        recorder.onRunStarted(info);
        EXPECT_EQ(loadRun(dir).summary.status, RunStatus::Running);
        for (int i = 0; i < 2; ++i) {
            StepRecord s;
            s.global_step = s.step = i;
            s.batch_size = 8;
            s.phases.forward_ms = 1.5 + i;
            s.step_ms = 4.25;
            s.loss = 2.0 - i * 0.5;
            s.page_faults = 100 * i;
            s.memory.parameter_bytes = 46758912;
            s.memory.gradient_bytes = 46758912 * i;
            s.memory.optimizer_state_bytes = 2 * 46758912;
            s.memory.input_bytes = 24640;
            s.memory.activation_bytes = 123456789 + i;
            s.memory.temporary_bytes = 7;
            recorder.onStep(s);
        }
        EpochRecord e;
        e.epoch_time_s = 1.25;
        e.train_loss = 1.75;
        recorder.onEpoch(e);
        RunSummary summary;
        summary.status = RunStatus::Completed;
        summary.median_images_per_sec = 123.5;
        summary.median_phases.backward_ms = 7;
        summary.median_page_faults = 50;
        summary.peak_memory.activation_bytes = 123456790;
        summary.peak_memory.input_bytes = 24640;
        recorder.onRunFinished(summary);
    }
    const auto run = loadRun(dir);
    EXPECT_EQ(run.info.config.name, "tiny");
    EXPECT_EQ(run.info.env.torch_version, "1.13.1");
    EXPECT_EQ(run.info.env.cpu_features, std::vector<std::string>{"avx2"});
    ASSERT_EQ(run.steps.size(), 2u);
    EXPECT_DOUBLE_EQ(run.steps[1].phases.forward_ms, 2.5);
    EXPECT_DOUBLE_EQ(run.steps[1].loss, 1.5);
    EXPECT_EQ(run.steps[1].page_faults, 100);
    const MemoryByCategory& memory = run.steps[1].memory;
    EXPECT_EQ(memory.parameter_bytes, 46758912);
    EXPECT_EQ(memory.gradient_bytes, 46758912);
    EXPECT_EQ(memory.optimizer_state_bytes, 2 * 46758912);
    EXPECT_EQ(memory.input_bytes, 24640);
    EXPECT_EQ(memory.activation_bytes, 123456790);
    EXPECT_EQ(memory.temporary_bytes, 7);
    EXPECT_EQ(run.steps[0].memory.gradient_bytes, 0);
    ASSERT_EQ(run.epochs.size(), 1u);
    EXPECT_DOUBLE_EQ(run.epochs[0].train_loss, 1.75);
    EXPECT_TRUE(std::isnan(run.epochs[0].val_accuracy));
    EXPECT_EQ(run.summary.status, RunStatus::Completed);
    EXPECT_DOUBLE_EQ(run.summary.median_images_per_sec, 123.5);
    EXPECT_DOUBLE_EQ(run.summary.median_phases.backward_ms, 7);
    EXPECT_DOUBLE_EQ(run.summary.median_page_faults, 50);
    EXPECT_EQ(run.summary.peak_memory.activation_bytes, 123456790);
    EXPECT_EQ(run.summary.peak_memory.input_bytes, 24640);
    EXPECT_EQ(findRuns(dir.parent_path()).empty(), false);
}

TEST(RunDirectory, ErrorsNameTheFile) {
    const auto dir = test::freshDir("broken_run");
    auto message = [&] {
        try {
            loadRun(dir);
        } catch (const RunFormatError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(message().find("run.json"), std::string::npos);
    std::ofstream(dir / "run.json") << "{\"format\": \"trainscope-run-1\", \"config\": ";
    EXPECT_NE(message().find("not valid JSON"), std::string::npos);
    std::ofstream(dir / "run.json") << "{\"format\": \"trainscope-run-1\", \"config\": {\"x\": 1}}";
    EXPECT_NE(message().find("x"), std::string::npos);
    std::ofstream(dir / "run.json") << "{\"format\": \"trainscope-run-1\", \"config\": {}}";
    std::ofstream(dir / "steps.csv") << stepsCsvHeader() << "1,2,oops\n1,2,3\n";
    EXPECT_NE(message().find("steps.csv:2"), std::string::npos) << message();
}

TEST(RunDirectory, PartialLastStepLineIsTolerated) {
    const auto dir = test::freshDir("partial_steps");
    StepRecord s;
    s.loss = 1;
    std::ofstream(dir / "steps.csv") << stepsCsvHeader() << stepsCsvRow(s) << "0,1,2";
    EXPECT_EQ(readStepsCsv(dir / "steps.csv").size(), 1u);
}

// steps.csv as written before the page_faults column existed (24 columns).
TEST(RunDirectory, StepsWithoutPageFaultsColumnStillRead) {
    const auto dir = test::freshDir("old_steps");
    std::ofstream(dir / "steps.csv")
        << "epoch,step,global_step,batch_size,data_ms,copy_ms,forward_ms,backward_ms,"
           "optimizer_ms,other_ms,step_ms,images_per_sec,loss,lr,correct,skipped,loss_scale,"
           "tensor_bytes,tensor_peak_bytes,rss_bytes,device_bytes,device_peak_bytes,wall_s,"
           "profiled\n"
        << "0,3,3,32,0.1,0.2,300,700,20,1,1021.3,31.3,2.25,0.01,4,0,0,10,20,30,0,0,4.5,1\n";
    const auto steps = readStepsCsv(dir / "steps.csv");
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].step, 3);
    EXPECT_DOUBLE_EQ(steps[0].phases.backward_ms, 700);
    EXPECT_TRUE(steps[0].profiled);
    EXPECT_EQ(steps[0].page_faults, -1) << "not recorded";
    EXPECT_EQ(steps[0].memory.total(), 0);
    // A header that is neither the current nor an older one is still refused.
    std::ofstream(dir / "steps.csv") << "epoch,step,global_step\n0,1,1\n";
    EXPECT_THROW(readStepsCsv(dir / "steps.csv"), RunFormatError);
}

// steps.csv as written before the memory categories existed (27 columns):
// every category reads as 0.
TEST(RunDirectory, StepsWithoutMemoryCategoriesStillRead) {
    const auto dir = test::freshDir("steps_before_categories");
    std::ofstream(dir / "steps.csv")
        << "epoch,step,global_step,batch_size,data_ms,copy_ms,forward_ms,backward_ms,"
           "optimizer_ms,other_ms,step_ms,images_per_sec,loss,lr,correct,skipped,loss_scale,"
           "tensor_bytes,tensor_peak_bytes,rss_bytes,device_bytes,device_peak_bytes,wall_s,"
           "profiled,page_faults,allreduce_ms,comm_wait_ms\n"
        << "0,3,3,32,0.1,0.2,300,700,20,1,1021.3,31.3,2.25,0.01,4,0,0,10,20,30,0,0,4.5,1,12,0,0\n";
    const auto steps = readStepsCsv(dir / "steps.csv");
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].page_faults, 12);
    EXPECT_EQ(steps[0].tensor_peak_bytes, 20);
    EXPECT_EQ(steps[0].memory.total(), 0);
}

TEST(RunDirectory, MakeRunDirectoryIsUnique) {
    const auto root = test::freshDir("run_roots");
    const auto a = makeRunDirectory(root, "my run/1");
    const auto b = makeRunDirectory(root, "my run/1");
    EXPECT_NE(a, b);
    EXPECT_EQ(a.filename().string().find('/'), std::string::npos);
    EXPECT_NE(a.filename().string().find("my_run_1"), std::string::npos);
}
