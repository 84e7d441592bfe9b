// libtrainscope_torch_backend.so: the GUI's TorchBackend on LibTorch, loaded
// by widgets/backend/TorchBackendLoader after start-up (the GUI program itself
// links no LibTorch). A thin adapter over core's functions; the widget tests
// link it directly.
#include <mutex>

#include <caffe2/serialize/versions.h>
#include <torch/version.h>

#include "backend/TorchBackend.h"
#include "engine/Trainer.h"
#include "env/Environment.h"
#include "env/TorchCompat.h"
#include "gui/CudaDriver.h"
#include "profiling/KinetoRecorder.h"
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

TorchFeatures probeFeatures() {
    TorchFeatures f;
    f.torch_version = TORCH_VERSION;
    const EnvironmentInfo env = ts::probeEnvironment();
    f.cuda_version = compat::cudaBuilt() ? env.cuda_version : "";
    f.gpus = static_cast<int>(env.cuda_devices.size());
    if (!compat::cudaBuilt())
        f.gpu_problem = "LibTorch " + f.torch_version + " is built without CUDA";
    else if (f.gpus == 0) {
        f.gpu_problem = cudaDriverProblem(f.cuda_version);
        if (f.gpu_problem.empty()) f.gpu_problem = "no GPU found";
    }
    f.kineto = KinetoRecorder::available(&f.kineto_problem);
    f.fused_optimizer = compat::fusedSgdBuilt() && compat::fusedAdamBuilt();
    if (!f.fused_optimizer)
        f.fused_problem = "LibTorch " + f.torch_version +
                          " has no fused optimizer kernels on the CPU (2.4 and later have): the "
                          "step loops over the parameters";
    f.torchscript_max_format =
        static_cast<int64_t>(caffe2::serialize::kMaxSupportedFileFormatVersion);
    return f;
}

class LibTorchBackend : public TorchBackend {
public:
    TorchFeatures features() const override {
        // Probed once: Kineto's check records a profile.
        static const TorchFeatures probed = probeFeatures();
        return probed;
    }
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

// The module's entry points (TorchBackendLoader looks them up by name): the
// fingerprint of the types it shares with the GUI, checked first, and the backend.
extern "C" __attribute__((visibility("default"))) uint64_t trainscope_torch_backend_abi() {
    return ts::gui::torchBackendAbi();
}

extern "C" __attribute__((visibility("default"))) const ts::gui::TorchBackend*
trainscope_torch_backend() {
    return ts::gui::linkedTorchBackend();
}
