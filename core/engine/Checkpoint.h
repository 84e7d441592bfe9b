#pragma once
// Trainscope checkpoints: model tensors (torchvision names), optimizer state,
// loss-scaler state and the position in the run, written atomically.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include <torch/torch.h>

#include "models/Model.h"

namespace ts {

class LossScaler;

struct CheckpointPosition {
    int epoch = 0;             // epoch to continue with
    int64_t step_in_epoch = 0; // steps of that epoch already done
    int64_t global_step = 0;
    double best_val_accuracy = -1;
    // Ranks of the job that wrote it: a data-parallel position (per-rank steps
    // over per-rank shards) means the same only with the same number of ranks.
    int world_size = 1;
};

void saveCheckpoint(const std::filesystem::path& path, Model& model,
                    torch::optim::Optimizer& optimizer, const LossScaler* scaler,
                    const CheckpointPosition& position, const std::string& config_json);

// True when `path` is a Trainscope checkpoint (rather than some other weights file).
bool isTrainscopeCheckpoint(const std::filesystem::path& path);

// Model tensors only (used by `evaluate` and `pretrained`).
StateDict readCheckpointWeights(const std::filesystem::path& path);

// Restores everything; throws ModelError naming the file on mismatch.
CheckpointPosition loadCheckpoint(const std::filesystem::path& path, Model& model,
                                  torch::optim::Optimizer& optimizer, LossScaler* scaler);

} // namespace ts
