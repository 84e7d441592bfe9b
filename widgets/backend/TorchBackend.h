#pragma once
// What the GUI asks of LibTorch, behind one interface: the machine's devices
// and environment, training a run, the point runner of sweeps and the ladder,
// pruning studies and the peak benchmark. The GUI program (`trainscope`)
// links no LibTorch: TorchBackendLoader loads the implementation
// (app/gui/TorchBackendModule.cpp, built as a loadable module) in the
// background after start-up, so opening a trace never waits for LibTorch's
// 0.7-1 s and 170 MB (docs/architecture.md). No Qt and no LibTorch here.
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

class TorchBackend {
public:
    virtual ~TorchBackend() = default;
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

// The module's one exported function: `extern "C" const TorchBackend*
// trainscope_torch_backend()`, returning an object that lives as long as the
// process.
inline constexpr const char* kTorchBackendSymbol = "trainscope_torch_backend";
using TorchBackendEntry = const TorchBackend* (*)();

} // namespace ts::gui
