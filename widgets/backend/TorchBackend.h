#pragma once
// What the GUI asks of LibTorch, behind one interface: the machine's devices
// and environment, training a run, the point runner of sweeps and the ladder,
// pruning studies and the peak benchmark. The GUI program (`trainscope`)
// links no LibTorch: TorchBackendLoader loads the implementation
// (app/gui/TorchBackendModule.cpp, built as a loadable module) in the
// background after start-up, so opening a trace never waits for LibTorch's
// 0.7-1 s and 170 MB (docs/architecture.md). No Qt and no LibTorch here.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "config/ExperimentConfig.h"
#include "env/Devices.h"
#include "experiments/Ladder.h"
#include "experiments/PointRunner.h"
#include "experiments/PruneStudy.h"
#include "records/EnvironmentInfo.h"
#include "records/Records.h"
#include "records/TrainerObserver.h"
#include "runners/PeakBenchmark.h"

namespace ts::gui {

// One training run, recorded into its run directory.
class TrainingRun {
public:
    virtual ~TrainingRun() = default;
    // Trains to the end or to a cancel. Throws std::exception when the
    // Trainer refuses the config or the run directory cannot be written.
    virtual RunSummary run() = 0;
    // Thread-safe: the run stops within one step.
    virtual void requestCancel() = 0;
};

// The point runner of sweeps and the ladder, which the GUI can stop.
class StoppablePointRunner : public PointRunner {
public:
    // Thread-safe: stops the running point and every later one.
    virtual void requestCancel() = 0;
};

// What the loaded LibTorch and this machine can do, for the experiment form
// (what it offers, and why not the rest) and the status bar.
struct TorchFeatures {
    std::string torch_version; // "2.15.0"
    std::string cuda_version;  // the CUDA LibTorch was built with ("13.0"), "" for none
    int gpus = 0;              // CUDA devices this process can use
    std::string gpu_problem;   // why none, when none ("no CUDA device found")
    bool kineto = false;       // torch.profiler's recorder records here
    std::string kineto_problem;
    bool fused_optimizer = false; // at::_fused_sgd_/_fused_adam_/_fused_adamw_ on the CPU
    std::string fused_problem;
    // The TorchScript archives it reads: file format versions up to this
    // (caffe2::serialize::kMaxSupportedFileFormatVersion).
    int64_t torchscript_max_format = 0;
};

class TorchBackend {
public:
    virtual ~TorchBackend() = default;
    virtual TorchFeatures features() const = 0;
    virtual std::vector<DeviceOption> listDevices() const = 0;
    virtual EnvironmentInfo probeEnvironment() const = 0;
    // Empty when `device` runs `precision` here, otherwise why not.
    virtual std::string precisionSupportProblem(const std::string& device,
                                                const std::string& precision) const = 0;
    // `live` observes every step (the GUI's LiveBuffer); `checkpoints`
    // writes the model's checkpoints into `run_dir`.
    virtual std::unique_ptr<TrainingRun> trainingRun(const ExperimentConfig& config,
                                                     const std::filesystem::path& run_dir,
                                                     TrainerObserver& live,
                                                     bool checkpoints) const = 0;
    virtual std::unique_ptr<StoppablePointRunner> pointRunner(TrainerObserver* live) const = 0;
    virtual LadderContext probeLadderContext(const std::string& device) const = 0;
    virtual PruneStudyResult runPruneStudy(const PruneStudyOptions& options,
                                           const std::filesystem::path& out_dir) const = 0;
    virtual MachinePeaks measurePeaks(const PeakOptions& options) const = 0;
    // precisionSupportProblem as a check for config validation (the backend
    // lives as long as the process).
    DeviceSupportCheck deviceSupport() const {
        return [this](const std::string& device, const std::string& precision) {
            return precisionSupportProblem(device, precision);
        };
    }
    // Config validation against this machine.
    std::vector<ConfigIssue> validate(const ExperimentConfig& config) const {
        return validateConfigWith(config, deviceSupport());
    }
};

// The module's entry point: `extern "C" const TorchBackend*
// trainscope_torch_backend()`, returning an object that lives as long as the
// process.
inline constexpr const char* kTorchBackendSymbol = "trainscope_torch_backend";
using TorchBackendEntry = const TorchBackend* (*)();

// The module and the GUI share these types across the boundary, and the two
// LibTorch modules are built in two build trees that can be out of step (a
// rebuilt GUI beside last week's build/torch2). The module exports the
// fingerprint it was built with (`extern "C" uint64_t
// trainscope_torch_backend_abi()`), and the loader refuses one that differs,
// rather than calling through a vtable or a struct it would misread. The
// revision counts changes to TorchBackend's functions; the sizes catch the
// data that crosses.
inline constexpr uint64_t kTorchBackendRevision = 2;
inline constexpr const char* kTorchBackendAbiSymbol = "trainscope_torch_backend_abi";
using TorchBackendAbiEntry = uint64_t (*)();
constexpr uint64_t torchBackendAbi() {
    uint64_t h = 1469598103934665603ull ^ kTorchBackendRevision; // FNV-1a over the sizes
    for (uint64_t size : {sizeof(TorchFeatures), sizeof(ExperimentConfig), sizeof(EnvironmentInfo),
                          sizeof(DeviceOption), sizeof(RunInfo), sizeof(RunSummary),
                          sizeof(StepRecord), sizeof(EpochRecord), sizeof(PointResult),
                          sizeof(LadderContext), sizeof(PruneStudyOptions),
                          sizeof(PruneStudyResult), sizeof(PeakOptions), sizeof(MachinePeaks)})
        h = (h ^ size) * 1099511628211ull;
    return h;
}

} // namespace ts::gui
