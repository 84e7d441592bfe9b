#pragma once
// Runs a pruning study (experiments/PruneStudy.h): prunes trained weights and
// measures what it did, per-layer sparsity, accuracy before and after
// (evaluateModel), and inference latency before and after (median of N
// forward passes on the configured device). Writes the pruned weights as a
// Trainscope checkpoint that `pretrained`, `evaluate` and `prune` itself can
// load. Torch stays out of this header.
#include <filesystem>

#include "experiments/PruneStudy.h"

namespace ts {

// Throws ConfigError / DataError / ModelError / std::invalid_argument on bad input.
PruneStudyResult runPruneStudy(const PruneStudyOptions& options,
                               const std::filesystem::path& out_dir);

} // namespace ts
