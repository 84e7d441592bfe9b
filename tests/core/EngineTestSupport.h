#pragma once
// Shared helpers for engine and CLI tests: tiny synthetic experiments and a
// recording observer.
#include <atomic>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "config/ExperimentConfig.h"
#include "records/TrainerObserver.h"

namespace ts::test {

// ResNet-18 (CIFAR stem) on 16x16 synthetic images: a few steps take < 1 s.
inline ExperimentConfig tinyConfig() {
    ExperimentConfig c;
    c.name = "tiny";
    c.dataset = "synthetic";
    c.synthetic_samples = 64;
    c.image_size = 16;
    c.synthetic_channels = 3;
    c.num_classes = 4;
    c.batch_size = 8;
    c.epochs = 1;
    c.threads = 1;
    c.workers = 0;
    c.lr = 0.02;
    c.warmup_steps = 0;
    c.schedule = "constant";
    c.val_every = 1;
    c.augment = true;
    c.warmup_steps_excluded = 1;
    return c;
}

inline std::filesystem::path freshDir(const std::string& name) {
    auto dir = std::filesystem::path(::testing::TempDir()) / ("trainscope_" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

// Records the sequence of callbacks as letters: S(tarted) s(tep) E(poch)
// P(rofile) F(inished), plus the records themselves.
class RecordingObserver : public TrainerObserver {
public:
    std::function<void(const StepRecord&)> on_step;
    std::function<void(const EpochRecord&)> on_epoch;
    void onRunStarted(const RunInfo& i) override {
        add('S');
        info = i;
    }
    void onStep(const StepRecord& s) override {
        add('s');
        steps.push_back(s);
        if (on_step) on_step(s);
    }
    void onEpoch(const EpochRecord& e) override {
        add('E');
        epochs.push_back(e);
        if (on_epoch) on_epoch(e);
    }
    void onProfile(const ProfileCapture&) override { add('P'); }
    void onMessage(LogLevel, const std::string& m) override { messages.push_back(m); }
    void onRunFinished(const RunSummary& s) override {
        add('F');
        summary = s;
    }

    std::string sequence;
    RunInfo info;
    std::vector<StepRecord> steps;
    std::vector<EpochRecord> epochs;
    std::vector<std::string> messages;
    RunSummary summary;

private:
    void add(char c) {
        std::lock_guard<std::mutex> lock(mutex_);
        sequence += c;
    }
    std::mutex mutex_;
};

} // namespace ts::test
