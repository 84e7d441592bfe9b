#pragma once
// The optimization ladder: a baseline run, then each optimization applied on
// top of the ones kept so far, every rung measured with the same warm-up and
// step counts on the user's model and data. A rung is kept only when it beats
// the best run so far by a margin; rungs that cannot apply to the device are
// listed as skipped with the reason. No torch.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "config/ExperimentConfig.h"
#include "experiments/PointRunner.h"

namespace ts {

// What the machine offers, as far as the rungs care.
struct LadderContext {
    bool cuda = false;            // the config's device is a CUDA device
    bool cuda_bf16 = false;       // that device runs bf16 (compute capability 8.0+)
    bool cpu_native_bf16 = false; // AVX512-BF16 or AMX
    int logical_cores = 1;        // the usable cores (CPU affinity), else the machine's
    int default_threads = 1;      // intra-op threads when threads = 0 (chooseIntraOpThreads)
    std::string cpu_model;
};

// Probes this machine for `device`.
LadderContext probeLadderContext(const std::string& device);

struct LadderSpec {
    ExperimentConfig base;
    int64_t steps = 30;         // measured steps per rung
    int64_t warmup = 5;         // steps before them, left out of the medians
    int64_t val_batches = 10;   // validation batches for the accuracy column (0 = all)
    double keep_margin = 0.03;  // a rung must beat the best so far by this share
    double memory_margin = 0.9; // larger-batch rung: share of free memory it may need
};

struct RungRow {
    std::string id;     // "baseline", "workers", "pin-memory", ...
    std::string title;  // "loader workers"
    std::string change; // "workers=2" (empty for the baseline)
    bool ran = false;
    std::string skip_reason;
    PointResult result;
    double speedup = 0; // images/s over the baseline's (0 when not measured)
    double gain = 0;    // images/s over the best so far, -1..inf (0 when not measured)
    bool kept = false;
    std::string decision;    // "kept: +12.3% over the best so far", ...
    ExperimentConfig config; // what ran (the best config so far plus the change)
};

struct LadderResult {
    LadderSpec spec;
    LadderContext context;
    std::vector<RungRow> rows;
    ExperimentConfig best; // every kept change applied
    double baseline_images_per_sec = 0;
    double best_images_per_sec = 0;
    bool baseline_failed() const;
};

// The rung ids in ladder order.
const std::vector<std::string>& ladderRungIds();

using LadderProgress = std::function<void(const RungRow& row, const LadderResult& so_far)>;

// Runs the ladder into out_dir/rung_<i>_<id>/. Throws ConfigError when the
// base config is invalid or the counts are out of range.
LadderResult runLadder(const LadderSpec& spec, const LadderContext& context, PointRunner& runner,
                       const std::filesystem::path& out_dir, const LadderProgress& progress = {});

} // namespace ts
