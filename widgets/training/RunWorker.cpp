#include "training/RunWorker.h"

#include <exception>

#include "backend/TorchBackendLoader.h"

namespace ts::gui {

RunWorker::RunWorker(ExperimentConfig config, std::filesystem::path runDir, TrainerObserver& live,
                     bool checkpoints)
    : config_(std::move(config)), run_dir_(std::move(runDir)), live_(live),
      checkpoints_(checkpoints) {}

void RunWorker::requestStop() {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_requested_ = true;
    if (training_) training_->requestCancel();
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
    const std::unique_ptr<TrainingRun> training =
        torchBackend().trainingRun(config_, run_dir_, live_, checkpoints_);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        training_ = training.get();
        if (stop_requested_) training->requestCancel();
    }
    RunSummary summary = training->run();
    std::lock_guard<std::mutex> lock(mutex_);
    training_ = nullptr;
    return summary;
}

} // namespace ts::gui
