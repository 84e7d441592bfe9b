#pragma once
// Sweeps: one short measured run per value of a config key (or per cell of a
// grid of two keys), all with the same warm-up and step counts. Points along a
// memory key (batch_size, image_size) run smallest first so that the memory
// guard can predict each from the ones before. No torch.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "config/ExperimentConfig.h"
#include "experiments/PointRunner.h"

namespace ts {

struct SweepAxis {
    std::string key;                 // any config key, e.g. "batch_size", "precision"
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
};

struct SweepPoint {
    size_t index = 0;                                        // run order, 0-based
    std::vector<std::pair<std::string, std::string>> values; // (key, value) per axis
    ExperimentConfig config;                                 // ready to run
    std::string dir_name;      // point_<i>_<key>=<value>[_<key2>=<value2>]
    std::string label() const; // "batch_size=64, precision=bf16"
};

// Splits "16,32,64" (or "[16, 32]") into values; empty items are errors.
std::vector<std::string> parseSweepValues(const std::string& list, const std::string& option);

// Points in run order. Throws ConfigError naming the key or value when a key
// is unknown, a value does not fit its key, or a point's config is invalid.
std::vector<SweepPoint> expandSweep(const SweepSpec& spec);

struct SweepRow {
    SweepPoint point;
    PointResult result;
    int64_t predicted_bytes = 0; // 0 = no prediction
    int64_t available_bytes = 0;
};

struct SweepResult {
    SweepSpec spec;
    std::vector<SweepRow> rows; // in run order
    size_t completed() const;
};

using SweepProgress = std::function<void(const SweepRow& row, const SweepResult& so_far)>;

// Runs every point into out_dir/<point dir>, guarding memory before each.
SweepResult runSweep(const SweepSpec& spec, PointRunner& runner,
                     const std::filesystem::path& out_dir, const SweepProgress& progress = {});

} // namespace ts
