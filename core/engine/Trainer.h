#pragma once
// The training engine. Torch stays out of this header so the GUI can own a
// Trainer without compiling LibTorch.
#include <atomic>
#include <memory>

#include "config/ExperimentConfig.h"
#include "records/Records.h"
#include "records/TrainerObserver.h"

namespace ts {

class Communicator; // distributed/Communicator.h (LibTorch), so only declared here

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
    // In a data-parallel run only rank 0 writes them.
    void setCheckpointDir(const std::string& dir);

    // Trains as one rank of a data-parallel run over `communicator`: a shard
    // of the data per rank, parameters and buffers broadcast from rank 0,
    // gradients averaged in buckets during backward (distributed/GradientReducer.h),
    // validation and epoch metrics summed over the ranks, and a stop (cancel)
    // agreed by all ranks at a step boundary. The summary's
    // median_images_per_sec is then the global rate and `distributed` holds
    // every rank's figures.
    void setCommunicator(std::shared_ptr<Communicator> communicator);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace ts
