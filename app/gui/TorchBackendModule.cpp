// libtrainscope_torch_backend.so: the GUI's TorchBackend on LibTorch, loaded
// by widgets/backend/TorchBackendLoader after start-up (the GUI program itself
// links no LibTorch). A thin adapter over core's functions; the widget tests
// link it directly.
#include <mutex>

#include "backend/TorchBackend.h"
#include "engine/Trainer.h"
#include "env/Environment.h"
#include "report/RunDirectory.h"
#include "runners/LadderContext.h"
#include "runners/PruneStudyRun.h"
#include "runners/TrainerPointRunner.h"

namespace ts::gui {
namespace {

// Trainer and RunRecorder together, as every GUI run is recorded.
class RecordedTrainingRun : public TrainingRun {
public:
    RecordedTrainingRun(const ExperimentConfig& config, const std::filesystem::path& run_dir,
                        TrainerObserver& live, bool checkpoints)
        : recorder_(run_dir) {
        observers_.add(&recorder_);
        observers_.add(&live);
        trainer_ = std::make_unique<Trainer>(config, observers_);
        if (checkpoints) trainer_->setCheckpointDir(run_dir.string());
    }
    RunSummary run() override { return trainer_->run(); }
    void requestCancel() override { trainer_->requestCancel(); }

private:
    RunRecorder recorder_;
    ObserverList observers_;
    std::unique_ptr<Trainer> trainer_;
};

class StoppableTrainerRunner : public StoppablePointRunner {
public:
    explicit StoppableTrainerRunner(TrainerObserver* live) : runner_(live) {}
    PointResult run(const ExperimentConfig& config, const std::filesystem::path& dir) override {
        return runner_.run(config, dir);
    }
    int64_t availableMemoryBytes(const ExperimentConfig& config) override {
        return runner_.availableMemoryBytes(config);
    }
    bool cancelled() const override { return runner_.cancelled(); }
    DeviceSupportCheck deviceSupport() const override { return runner_.deviceSupport(); }
    void requestCancel() override { runner_.requestCancel(); }

private:
    TrainerPointRunner runner_;
};

class LibTorchBackend : public TorchBackend {
public:
    std::vector<DeviceOption> listDevices() const override { return ts::listDevices(); }
    EnvironmentInfo probeEnvironment() const override { return ts::probeEnvironment(); }
    std::string precisionSupportProblem(const std::string& device,
                                        const std::string& precision) const override {
        return ts::precisionSupportProblem(device, precision);
    }
    std::unique_ptr<TrainingRun> trainingRun(const ExperimentConfig& config,
                                             const std::filesystem::path& run_dir,
                                             TrainerObserver& live,
                                             bool checkpoints) const override {
        return std::make_unique<RecordedTrainingRun>(config, run_dir, live, checkpoints);
    }
    std::unique_ptr<StoppablePointRunner> pointRunner(TrainerObserver* live) const override {
        return std::make_unique<StoppableTrainerRunner>(live);
    }
    LadderContext probeLadderContext(const std::string& device) const override {
        return ts::probeLadderContext(device);
    }
    PruneStudyResult runPruneStudy(const PruneStudyOptions& options,
                                   const std::filesystem::path& out_dir) const override {
        return ts::runPruneStudy(options, out_dir);
    }
    MachinePeaks measurePeaks(const PeakOptions& options) const override {
        return ts::measurePeaks(options);
    }
};

} // namespace

const TorchBackend* linkedTorchBackend() {
    static const LibTorchBackend backend;
    return &backend;
}

} // namespace ts::gui

// The module's entry point (TorchBackendLoader looks it up by name).
extern "C" __attribute__((visibility("default"))) const ts::gui::TorchBackend*
trainscope_torch_backend() {
    return ts::gui::linkedTorchBackend();
}
