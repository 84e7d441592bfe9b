#pragma once
// A scripted PointRunner for sweep and ladder tests: each run's outcome comes
// from a function of the config, and every config run is remembered; and the
// sweeps the sweep tests and goldens share.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "env/Devices.h"
#include "experiments/PointRunner.h"
#include "experiments/Sweep.h"

namespace ts::test {

class FakePointRunner : public PointRunner {
public:
    std::function<PointResult(const ExperimentConfig&)> behavior;
    int64_t available_bytes = int64_t(1) << 40;
    std::vector<ExperimentConfig> ran;
    std::vector<std::filesystem::path> dirs;
    // The user cancels during run number `cancel_during_run` (1-based; 0 = never).
    size_t cancel_during_run = 0;

    PointResult run(const ExperimentConfig& config, const std::filesystem::path& dir) override {
        ran.push_back(config);
        dirs.push_back(dir);
        PointResult r = behavior(config);
        r.run_dir = dir;
        return r;
    }
    int64_t availableMemoryBytes(const ExperimentConfig&) override { return available_bytes; }
    bool cancelled() const override {
        return cancel_during_run > 0 && ran.size() >= cancel_during_run;
    }
    // This machine's, as the Trainer's runner says (the points validate as before).
    DeviceSupportCheck deviceSupport() const override { return precisionSupportProblem; }
};

inline constexpr int64_t kMiB = 1024 * 1024;

inline PointResult completedPoint(double images_per_sec, int64_t memory_bytes,
                                  double val_accuracy = 0.5) {
    PointResult r;
    r.outcome = PointOutcome::Completed;
    r.summary.status = RunStatus::Completed;
    r.summary.steps_completed = 10;
    r.summary.median_images_per_sec = images_per_sec;
    r.summary.median_step_ms = images_per_sec > 0 ? 64 * 1000.0 / images_per_sec : 0;
    r.summary.final_train_loss = 1.0;
    r.summary.final_val_accuracy = val_accuracy;
    r.memory_bytes = memory_bytes;
    return r;
}

inline PointResult outOfMemoryPoint() {
    PointResult r;
    r.outcome = PointOutcome::OutOfMemory;
    r.summary.status = RunStatus::Failed;
    r.message = "CUDA out of memory. Tried to allocate 2.00 GiB";
    return r;
}

// A batch_size sweep of tinyConfig() over `values` ("16,32,64"), 2 + 4 steps a point.
inline SweepSpec batchSweep(const std::string& values) {
    SweepSpec spec;
    spec.base = tinyConfig();
    spec.axes.push_back({"batch_size", parseSweepValues(values, "--values")});
    spec.steps = 4;
    spec.warmup = 2;
    return spec;
}

// Memory of a point: 50 MiB fixed + 10 MiB per image of the batch; images/s
// 100 + batch size.
inline PointResult linearMemory(const ExperimentConfig& c) {
    return completedPoint(100.0 + c.batch_size, (50 + 10 * int64_t(c.batch_size)) * kMiB);
}

} // namespace ts::test
