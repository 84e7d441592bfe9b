#include "ScriptedBackend.h"

#include <atomic>
#include <chrono>
#include <thread>

#include "ScriptedSteps.h"
#include "report/RunDirectory.h"
#include "trace/Trace.h"

namespace ts::test {
namespace {

class ScriptedRun : public gui::TrainingRun {
public:
    ScriptedRun(const ExperimentConfig& config, const std::filesystem::path& dir,
                TrainerObserver& live)
        : config_(config), recorder_(dir) {
        observers_.add(&recorder_);
        observers_.add(&live);
    }

    RunSummary run() override {
        RunInfo info;
        info.config = config_;
        info.train_samples = config_.synthetic_samples;
        info.steps_per_epoch = std::max<int64_t>(1, config_.synthetic_samples / config_.batch_size);
        observers_.onRunStarted(info);
        RunSummary summary;
        int64_t step = 0;
        for (int epoch = 0; epoch < config_.epochs && !cancel_; ++epoch) {
            for (int64_t i = 0; i < info.steps_per_epoch && !cancel_; ++i) {
                const StepRecord s = scriptedStep(epoch, i, step++, config_.batch_size, 0.5);
                observers_.onStep(s);
                if (s.global_step == 3) observers_.onProfile(profileWindow(s.global_step));
                std::this_thread::sleep_for(std::chrono::microseconds(500));
            }
            if (cancel_) break;
            observers_.onEpoch(scriptedEpoch(epoch, step));
            observers_.onMessage(LogLevel::Info, "epoch " + std::to_string(epoch) + " done");
            ++summary.epochs_completed;
        }
        summary.steps_completed = step;
        summary.status = cancel_ ? RunStatus::Cancelled : RunStatus::Completed;
        observers_.onRunFinished(summary);
        return summary;
    }
    void requestCancel() override { cancel_ = true; }

private:
    static ProfileCapture profileWindow(int64_t step) {
        ProfileCapture capture;
        capture.first_step = step;
        capture.last_step = step;
        TraceEvent op;
        op.name = capture.trace.internName("aten::conv2d");
        op.kind = EventKind::Operator;
        op.lane = 0;
        op.start_ns = 1000;
        op.dur_ns = 500;
        capture.trace.lanes.push_back(TraceLane{"thread 1", 1, false});
        capture.trace.events.push_back(op);
        capture.trace.finalize();
        return capture;
    }

    ExperimentConfig config_;
    RunRecorder recorder_;
    ObserverList observers_;
    std::atomic<bool> cancel_{false};
};

class ScriptedBackend : public gui::TorchBackend {
public:
    gui::TorchFeatures features() const override { return {}; }
    std::vector<DeviceOption> listDevices() const override { return {}; }
    EnvironmentInfo probeEnvironment() const override { return {}; }
    std::string precisionSupportProblem(const std::string&, const std::string&) const override {
        return {};
    }
    std::unique_ptr<gui::TrainingRun> trainingRun(const ExperimentConfig& config,
                                                  const std::filesystem::path& run_dir,
                                                  TrainerObserver& live, bool) const override {
        return std::make_unique<ScriptedRun>(config, run_dir, live);
    }
    std::unique_ptr<gui::StoppablePointRunner> pointRunner(TrainerObserver*) const override {
        return nullptr;
    }
    LadderContext probeLadderContext(const std::string&) const override { return {}; }
    PruneStudyResult runPruneStudy(const PruneStudyOptions&,
                                   const std::filesystem::path&) const override {
        return {};
    }
    MachinePeaks measurePeaks(const PeakOptions&) const override { return {}; }
};

} // namespace

const gui::TorchBackend& scriptedBackend() {
    static const ScriptedBackend backend;
    return backend;
}

} // namespace ts::test
