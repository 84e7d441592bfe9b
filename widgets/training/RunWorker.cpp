#include "training/RunWorker.h"

#include <exception>

#include "engine/Trainer.h"
#include "report/RunDirectory.h"

namespace ts::gui {

RunWorker::RunWorker(ExperimentConfig config, std::filesystem::path runDir, TrainerObserver& live,
                     bool checkpoints)
    : config_(std::move(config)), run_dir_(std::move(runDir)), live_(live),
      checkpoints_(checkpoints) {}

void RunWorker::requestStop() {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_requested_ = true;
    if (trainer_) trainer_->requestCancel();
}

void RunWorker::run() {
    try {
        summary_ = runTrainer();
    } catch (const std::exception& error) {
        // The Trainer rejected the config for this machine, or the run
        // directory could not be written: report it like a failed run.
        summary_ = RunSummary();
        summary_.status = RunStatus::Failed;
        summary_.error = error.what();
        live_.onMessage(LogLevel::Error, error.what());
        live_.onRunFinished(summary_);
    }
}

RunSummary RunWorker::runTrainer() {
    RunRecorder recorder(run_dir_);
    ObserverList observers;
    observers.add(&recorder);
    observers.add(&live_);
    Trainer trainer(config_, observers);
    if (checkpoints_) trainer.setCheckpointDir(run_dir_.string());
    {
        std::lock_guard<std::mutex> lock(mutex_);
        trainer_ = &trainer;
        if (stop_requested_) trainer.requestCancel();
    }
    RunSummary summary = trainer.run();
    std::lock_guard<std::mutex> lock(mutex_);
    trainer_ = nullptr;
    return summary;
}

} // namespace ts::gui
