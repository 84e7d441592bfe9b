#pragma once
// The training engine. Torch stays out of this header so the GUI can own a
// Trainer without compiling LibTorch.
#include <atomic>
#include <memory>

#include "config/ExperimentConfig.h"
#include "records/Records.h"
#include "records/TrainerObserver.h"

namespace ts {

class Trainer {
public:
    // Throws ConfigError when the config is invalid for this machine.
    Trainer(ExperimentConfig config, TrainerObserver& observer);
    ~Trainer();
    Trainer(const Trainer&) = delete;
    Trainer& operator=(const Trainer&) = delete;

    // Runs to completion, cancellation or failure; blocking (call it on a worker
    // thread). Bad input found while setting up (ConfigError, DataError,
    // ModelError) is thrown before onRunStarted; failures during training never
    // throw: they end as RunStatus::Failed with everything measured so far
    // reported and recorded.
    RunSummary run();
    // Thread-safe; the run stops within one step.
    void requestCancel();
    bool cancelRequested() const;

    // Where checkpoints go (best.pt, final.pt, epoch_N.pt); empty = none written.
    void setCheckpointDir(const std::string& dir);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace ts
