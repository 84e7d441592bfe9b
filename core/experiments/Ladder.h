#pragma once
// The optimization ladder: a baseline, then each optimization applied on top
// of the ones kept so far, every rung measured with the same warm-up and step
// counts on the user's model and data. Runs of one configuration differ by up
// to ±10% on shared machines, so nothing is measured once: the baseline is
// first run against itself (the noise floor), and each rung runs in rounds,
// interleaved with the best configuration so far (best, candidate; candidate,
// best; ...), until its gain's interval is decisive or the rounds run out. A
// rung is kept only when the whole interval clears the margin and the gain is
// not larger than the phase it can act on allows. Rungs that cannot apply to
// the device are listed as skipped with the reason. No torch.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "analysis/NoiseInterval.h"
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

struct LadderSpec {
    ExperimentConfig base;
    int64_t steps = 20;         // measured steps per run
    int64_t warmup = 5;         // steps before them, left out of the medians
    int64_t val_batches = 10;   // validation batches for the accuracy column (0 = all)
    double keep_margin = 0.03;  // a rung must beat the best so far by this share
    double memory_margin = 0.9; // larger-batch rung: share of free memory it may need
    // Rounds per comparison: at least `rounds`, more (up to `max_rounds`)
    // while the interval still straddles the margin.
    int rounds = 3;
    int max_rounds = 5;
    double confidence = kDefaultConfidence;
};

// One round of a comparison: the reference (best so far) and the candidate,
// run back to back.
struct LadderRound {
    PointResult reference;
    PointResult candidate;
};

struct RungRow {
    std::string id;     // "baseline", "workers", "pin-memory", ...
    std::string title;  // "loader workers"
    std::string change; // "workers=2" (empty for the baseline)
    bool ran = false;
    std::string skip_reason;
    PointResult result;              // the candidate's run of median images/s (its run directory)
    double speedup = 0;              // images/s over the baseline's (0 when not measured)
    double gain = 0;                 // images/s over the best so far, -1..inf (0 when not measured)
    GainInterval interval;           // of `gain`, over the rounds
    LevelInterval level;             // the candidate's images/s over its rounds
    std::vector<LadderRound> rounds; // in run order
    // Non-empty when the gain exceeds what the phase the change acts on can
    // give ("the data phase is 0.14 ms of a 1454.00 ms step: at most +0.01%").
    std::string implausible;
    bool kept = false;
    std::string decision;    // "kept: +12.3% (+8.0% … +16.9%) over the best so far", ...
    ExperimentConfig config; // what ran (the best config so far plus the change)

    // Over its rounds (the baseline's over all of its runs), else its run's.
    double imagesPerSec() const {
        return level.samples > 0 ? level.value : result.summary.median_images_per_sec;
    }
};

struct LadderResult {
    LadderSpec spec;
    LadderContext context;
    std::vector<RungRow> rows;
    ExperimentConfig best; // every kept change applied
    double baseline_images_per_sec = 0;
    double best_images_per_sec = 0;
    // The baseline against itself over `spec.rounds` rounds: how much two runs
    // of one configuration differ on this machine now.
    GainInterval noise_floor;
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
