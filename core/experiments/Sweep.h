#pragma once
// Sweeps: one short measured run per value of a config key (or per cell of a
// grid of two keys), all with the same warm-up and step counts. Points along a
// memory key (batch_size, image_size) run smallest first so that the memory
// guard can predict each from the ones before. No torch.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "analysis/NoiseInterval.h"
#include "config/ExperimentConfig.h"
#include "experiments/PointRunner.h"

namespace ts {

// The sweep key that is not a config key: the number of local processes of a
// data-parallel job (`run --nproc-per-node`), for a scaling chart.
inline constexpr const char* kProcessesKey = "processes";

struct SweepAxis {
    std::string key;                 // a config key ("batch_size", "precision") or "processes"
    std::vector<std::string> values; // as written after --values (JSON or plain text)
};

struct SweepSpec {
    ExperimentConfig base;
    std::vector<SweepAxis> axes; // one or two
    int64_t steps = 20;          // measured steps per point
    int64_t warmup = 5;          // steps before them, left out of the medians
    bool validate = false;       // also measure validation accuracy
    int64_t val_batches = 0;     // cap on validation batches (0 = config's)
    double memory_margin = 0.9;  // share of the free memory a point may be predicted to use
    // Rounds: every point once per round, in alternating order (so a drift of
    // the machine's speed falls on all points alike), for an interval per
    // point. 1 = one run each, no interval.
    int repeat = 1;
    // Seconds the sweep may take (0 = no limit): no further round starts when
    // the one before it says the next would end past this. The first always runs.
    double budget_s = 0;
    double confidence = kDefaultConfidence;
};

struct SweepPoint {
    size_t index = 0;                                        // run order, 0-based
    std::vector<std::pair<std::string, std::string>> values; // (key, value) per axis
    ExperimentConfig config;                                 // ready to run
    int processes = 1;         // local ranks of the point's job (the "processes" key)
    std::string dir_name;      // point_<i>_<key>=<value>[_<key2>=<value2>]
    std::string label() const; // "batch_size=64, precision=bf16"
};

// Splits "16,32,64" (or "[16, 32]") into values; empty items are errors.
std::vector<std::string> parseSweepValues(const std::string& list, const std::string& option);

// Points in run order. Throws ConfigError naming the key or value when a key
// is unknown, a value does not fit its key, or a point's config is invalid
// (with `device_support` saying which devices and precisions run here:
// env/Devices.h's precisionSupportProblem, or the runner's).
std::vector<SweepPoint> expandSweep(const SweepSpec& spec,
                                    const DeviceSupportCheck& device_support);

struct SweepRow {
    SweepPoint point;
    PointResult result;          // the first round's run
    int64_t predicted_bytes = 0; // 0 = no prediction
    int64_t available_bytes = 0;
    // Images/s of the point in each round (NaN where that round's run failed
    // or did not run), the level over them, and the gain against the best
    // point (paired by round). Without repeats: one value, no interval.
    std::vector<double> round_images_per_sec;
    LevelInterval level;
    GainInterval vs_best;
    bool best = false; // the point with the highest level
    // A data-parallel point's communication, means over its ranks (first
    // round): ms per step allreduces were in flight, ms per step of exposed
    // wait after backward, % of allreduce time hidden behind backward. NaN
    // for one process.
    double allreduce_ms = std::numeric_limits<double>::quiet_NaN();
    double comm_wait_ms = std::numeric_limits<double>::quiet_NaN();
    double overlap_pct = std::numeric_limits<double>::quiet_NaN();
    // Its level, else its first run's images/s.
    double imagesPerSec() const {
        return level.samples > 0 ? level.value : result.summary.median_images_per_sec;
    }
    // The gain against the best has an interval holding 0.
    bool withinNoiseOfBest() const {
        return !best && vs_best.hasInterval() && vs_best.withinNoise();
    }
};

struct SweepResult {
    SweepSpec spec;
    std::vector<SweepRow> rows; // in run order
    int rounds = 0;             // rounds run (the budget may stop before spec.repeat)
    size_t completed() const;
};

using SweepProgress = std::function<void(const SweepRow& row, const SweepResult& so_far)>;

// Runs every point into out_dir/<point dir>, guarding memory before each.
SweepResult runSweep(const SweepSpec& spec, PointRunner& runner,
                     const std::filesystem::path& out_dir, const SweepProgress& progress = {});

} // namespace ts
