#pragma once
// One training run as a BackgroundJob's work: the TorchBackend's recorded
// run (a ts::Trainer with the run directory's recorder) observed by the
// GUI's LiveBuffer. run() executes on the job's thread; requestStop() may
// come from any thread, also before the Trainer exists (model loading).
#include <filesystem>
#include <mutex>

#include "config/ExperimentConfig.h"
#include "records/Records.h"
#include "training/TrainingWork.h"

namespace ts {
class TrainerObserver;
} // namespace ts

namespace ts::gui {

class TrainingRun;

class RunWorker : public TrainingWork {
public:
    // `checkpoints`: also write best.pt/final.pt into the run directory.
    RunWorker(ExperimentConfig config, std::filesystem::path runDir, TrainerObserver& live,
              bool checkpoints);

    void run() override;
    void requestStop() override;
    const RunSummary& summary() const override { return summary_; }
    const std::filesystem::path& runDir() const { return run_dir_; }

private:
    RunSummary runTrainer();
    ExperimentConfig config_;
    std::filesystem::path run_dir_;
    TrainerObserver& live_;
    bool checkpoints_;
    RunSummary summary_;
    std::mutex mutex_;
    TrainingRun* training_ = nullptr; // guarded by mutex_; only set while run() uses it
    bool stop_requested_ = false;
};

} // namespace ts::gui
