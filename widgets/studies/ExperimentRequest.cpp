#include "studies/ExperimentRequest.h"

#include <filesystem>
#include <stdexcept>

#include <QJsonDocument>
#include <QJsonObject>

#include "backend/TorchBackendLoader.h"
#include "config/ConfigError.h"

namespace ts::gui {
namespace {

// Field names of the stored request, in one place.
namespace field {
constexpr const char* kMode = "mode";
constexpr const char* kKey = "key";
constexpr const char* kValues = "values";
constexpr const char* kKey2 = "key2";
constexpr const char* kValues2 = "values2";
constexpr const char* kSteps = "steps";
constexpr const char* kWarmup = "warmup";
constexpr const char* kRounds = "rounds";
constexpr const char* kWeights = "weights";
constexpr const char* kAmount = "amount";
constexpr const char* kStructured = "structured";
constexpr const char* kGlobal = "global";
constexpr const char* kNorm = "norm";
constexpr const char* kIncludeLinear = "include_linear";
constexpr const char* kLatencyRuns = "latency_runs";
} // namespace field

const std::pair<ExperimentMode, const char*> kModeNames[] = {{ExperimentMode::Sweep, "sweep"},
                                                             {ExperimentMode::Ladder, "ladder"},
                                                             {ExperimentMode::Prune, "prune"}};

// Each reader leaves `target` alone unless the field holds a fitting value.
void readString(const QJsonObject& o, const char* name, QString& target) {
    const QJsonValue v = o.value(QLatin1String(name));
    if (v.isString()) target = v.toString();
}
void readBool(const QJsonObject& o, const char* name, bool& target) {
    const QJsonValue v = o.value(QLatin1String(name));
    if (v.isBool()) target = v.toBool();
}
template <typename T>
void readNumber(const QJsonObject& o, const char* name, T low, T high, T& target) {
    const QJsonValue v = o.value(QLatin1String(name));
    if (!v.isDouble()) return;
    const double x = v.toDouble();
    if (x >= double(low) && x <= double(high)) target = T(x);
}

} // namespace

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
    spec.repeat = r.rounds;
    if (spec.repeat < 1) throw ConfigError("rounds must be at least 1");
    // Unknown keys and bad values fail here, before any run.
    expandSweep(spec, torchBackend().deviceSupport()); // waits for LibTorch while it loads
    return spec;
}

LadderSpec ladderSpecFor(const ExperimentRequest& r, const ExperimentConfig& base) {
    LadderSpec spec;
    spec.base = base;
    spec.steps = r.steps;
    spec.warmup = r.warmup;
    spec.rounds = r.rounds;
    spec.max_rounds = r.rounds + 2;
    if (spec.rounds < 2)
        throw ConfigError("a ladder needs at least 2 rounds: one round gives no interval, so "
                          "noise would pass for a gain");
    if (spec.steps < 1) throw ConfigError("measured steps must be at least 1");
    if (spec.warmup < 0) throw ConfigError("warm-up steps must not be negative");
    const auto issues = torchBackend().validate(
        measuredRunConfig(base, spec.steps, spec.warmup, true, spec.val_batches));
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
    const auto issues = torchBackend().validate(base);
    if (!issues.empty()) throw ConfigError("experiment \"" + base.name + "\"", issues);
    return options;
}

QString requestToJson(const ExperimentRequest& r) {
    QJsonObject o;
    for (const auto& [mode, name] : kModeNames)
        if (mode == r.mode) o[field::kMode] = QLatin1String(name);
    o[field::kKey] = r.key;
    o[field::kValues] = r.values;
    o[field::kKey2] = r.key2;
    o[field::kValues2] = r.values2;
    o[field::kSteps] = r.steps;
    o[field::kWarmup] = r.warmup;
    o[field::kRounds] = r.rounds;
    o[field::kWeights] = r.weights;
    o[field::kAmount] = r.prune.amount;
    o[field::kStructured] = r.prune.structured;
    o[field::kGlobal] = r.prune.global;
    o[field::kNorm] = r.prune.norm;
    o[field::kIncludeLinear] = r.prune.include_linear;
    o[field::kLatencyRuns] = r.latencyRuns;
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

ExperimentRequest requestFromJson(const QString& json) {
    ExperimentRequest r;
    const QJsonObject o = QJsonDocument::fromJson(json.toUtf8()).object(); // not JSON: empty
    const QString mode = o.value(QLatin1String(field::kMode)).toString();
    for (const auto& [value, name] : kModeNames)
        if (mode == QLatin1String(name)) r.mode = value;
    readString(o, field::kKey, r.key);
    readString(o, field::kValues, r.values);
    readString(o, field::kKey2, r.key2);
    readString(o, field::kValues2, r.values2);
    readNumber(o, field::kSteps, 1, kMaxExperimentSteps, r.steps);
    readNumber(o, field::kWarmup, 0, kMaxExperimentSteps, r.warmup);
    readNumber(o, field::kRounds, 1, kMaxRounds, r.rounds);
    readString(o, field::kWeights, r.weights);
    readNumber(o, field::kAmount, 0.0, 1.0, r.prune.amount);
    readBool(o, field::kStructured, r.prune.structured);
    readBool(o, field::kGlobal, r.prune.global);
    readNumber(o, field::kNorm, 1, 2, r.prune.norm);
    readBool(o, field::kIncludeLinear, r.prune.include_linear);
    readNumber(o, field::kLatencyRuns, 1, kMaxLatencyRuns, r.latencyRuns);
    return r;
}

} // namespace ts::gui
