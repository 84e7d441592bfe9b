#pragma once
// Run directories written by RunRecorder from constructed records (no
// training): the inputs of the compare, advise and roofline tests and of the
// comparison goldens.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "analysis/OpTableFormat.h"
#include "report/RunDirectory.h"

namespace ts::test {

// Three operators: a convolution with FLOP and memory figures, an add, an empty.
inline OpTable sampleOpTable() {
    OpTable t;
    t.rows.push_back({"aten::mkldnn_convolution", "", false, 40, 30'000'000, 31'000'000, 0, 0, 4096,
                      4096, 6e9, 2e8});
    t.rows.push_back({"aten::add_", "", false, 80, 5'000'000, 5'000'000, 0, 0, 0, 0, 1e6, 1.2e7});
    t.rows.push_back({"aten::empty", "", false, 200, 1'000'000, 1'000'000, 0, 0, 0, 0, 0, 0});
    t.total_self_cpu_ns = 36'000'000;
    return t;
}

// A finished CPU run: `data_ms` of every 100 ms step waits for data; ops.csv
// (sampleOpTable) when `with_ops`.
inline std::filesystem::path writeCompareRun(const std::string& name, int batch, double ips,
                                             double data_ms, bool with_ops) {
    const auto dir = freshDir("compare_" + name);
    RunRecorder recorder(dir);
    RunInfo info;
    info.config = tinyConfig();
    info.config.name = name;
    info.config.batch_size = batch;
    info.env.hostname = "testhost";
    info.env.cpu_model = "Test CPU";
    info.env.logical_cores = 4;
    info.env.intra_op_threads = 4;
    info.env.blas = "OpenBLAS (pthread)";
    recorder.onRunStarted(info);
    for (int i = 0; i < 4; ++i) {
        StepRecord s;
        s.step = s.global_step = i;
        s.batch_size = batch;
        s.step_ms = 100;
        s.phases.data_ms = data_ms;
        s.phases.forward_ms = 100 - data_ms;
        s.images_per_sec = ips;
        s.profiled = i >= 2;
        recorder.onStep(s);
    }
    EpochRecord e;
    e.steps = 4;
    e.epoch_time_s = 0.4;
    e.has_val = true;
    e.val_accuracy = 0.5;
    recorder.onEpoch(e);
    RunSummary summary;
    summary.status = RunStatus::Completed;
    summary.steps_completed = 4;
    summary.median_images_per_sec = ips;
    summary.median_step_ms = 100;
    summary.median_phases.data_ms = data_ms;
    summary.median_phases.forward_ms = 100 - data_ms;
    summary.mean_epoch_time_s = 0.4;
    summary.best_val_accuracy = summary.final_val_accuracy = 0.5;
    summary.final_train_loss = 1.2;
    summary.peak_rss_bytes = int64_t(batch) << 24;
    recorder.onRunFinished(summary);
    if (with_ops) std::ofstream(dir / run_files::kOpsCsv) << formatOpTableCsv(sampleOpTable());
    return dir;
}

} // namespace ts::test
