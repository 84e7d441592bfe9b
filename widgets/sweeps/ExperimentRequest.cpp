#include "sweeps/ExperimentRequest.h"

#include <filesystem>
#include <stdexcept>

#include "config/ConfigError.h"

namespace ts::gui {

SweepSpec sweepSpecFor(const ExperimentRequest& r, const ExperimentConfig& base) {
    SweepSpec spec;
    spec.base = base;
    const std::string key = r.key.trimmed().toStdString();
    if (key.empty()) throw ConfigError("choose the key to sweep");
    spec.axes.push_back({key, parseSweepValues(r.values.toStdString(), "values of " + key)});
    const std::string key2 = r.key2.trimmed().toStdString();
    if (!key2.empty()) {
        if (key2 == key) throw ConfigError("the second key must differ from the first");
        spec.axes.push_back({key2, parseSweepValues(r.values2.toStdString(), "values of " + key2)});
    } else if (!r.values2.trimmed().isEmpty()) {
        throw ConfigError("second values given without a second key");
    }
    spec.steps = r.steps;
    spec.warmup = r.warmup;
    expandSweep(spec); // unknown keys and bad values fail here, before any run
    return spec;
}

LadderSpec ladderSpecFor(const ExperimentRequest& r, const ExperimentConfig& base) {
    LadderSpec spec;
    spec.base = base;
    spec.steps = r.steps;
    spec.warmup = r.warmup;
    if (spec.steps < 1) throw ConfigError("measured steps must be at least 1");
    if (spec.warmup < 0) throw ConfigError("warm-up steps must not be negative");
    const auto issues =
        validateConfig(measuredRunConfig(base, spec.steps, spec.warmup, true, spec.val_batches));
    if (!issues.empty()) throw ConfigError("experiment \"" + base.name + "\"", issues);
    return spec;
}

PruneStudyOptions pruneOptionsFor(const ExperimentRequest& r, const ExperimentConfig& base) {
    PruneStudyOptions options;
    options.config = base;
    options.weights = r.weights.trimmed().toStdString();
    options.prune = r.prune;
    options.latency_runs = r.latencyRuns;
    if (options.weights.empty()) throw ConfigError("choose the trained weights file to prune");
    std::error_code ignored;
    if (!std::filesystem::is_regular_file(options.weights, ignored))
        throw ConfigError("weights file " + options.weights + " does not exist");
    try {
        checkPruneOptions(options.prune);
    } catch (const std::invalid_argument& e) {
        throw ConfigError(e.what());
    }
    if (options.latency_runs < 1) throw ConfigError("latency runs must be at least 1");
    const auto issues = validateConfig(base);
    if (!issues.empty()) throw ConfigError("experiment \"" + base.name + "\"", issues);
    return options;
}

} // namespace ts::gui
