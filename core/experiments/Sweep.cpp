#include "experiments/Sweep.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "config/ConfigError.h"
#include "config/ConfigJson.h"
#include "experiments/MemoryGuard.h"

namespace ts {
namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\"'"), e = s.find_last_not_of(" \t\"'");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string safeName(const std::string& text) {
    std::string out;
    for (unsigned char c : text)
        out += (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '=') ? char(c) : '_';
    return out;
}

double numberOf(const std::string& key, const std::string& value) {
    try {
        size_t used = 0;
        const double v = std::stod(value, &used);
        if (used == value.size() && std::isfinite(v) && v > 0) return v;
    } catch (const std::exception&) {
    }
    throw ConfigError("sweep value \"" + value + "\" of " + key + " is not a positive number");
}

bool isProcesses(const std::string& key) {
    return key == kProcessesKey;
}

int processCount(const std::string& value) {
    try {
        size_t used = 0;
        const int n = std::stoi(value, &used);
        if (used == value.size() && n >= 1 && n <= 1024) return n;
    } catch (const std::exception&) {
    }
    throw ConfigError("sweep value \"" + value + "\" of " + std::string(kProcessesKey) +
                      " is not a number of processes from 1 to 1024");
}

// Process counts run in ascending order, from the single process that the
// others' speedup is measured against.
std::vector<std::string> processOrder(std::vector<std::string> values) {
    std::stable_sort(values.begin(), values.end(), [](const auto& a, const auto& b) {
        return processCount(a) < processCount(b);
    });
    values.erase(std::unique(values.begin(), values.end(),
                             [](const auto& a, const auto& b) {
                                 return processCount(a) == processCount(b);
                             }),
                 values.end());
    return values;
}

// Memory keys run in ascending order (duplicates dropped) so that each point
// can be predicted from the smaller ones.
std::vector<std::string> runOrder(const SweepAxis& axis) {
    if (axis.values.empty())
        throw ConfigError("sweep key " + axis.key + " has no values (give --values a,b,c)");
    std::vector<std::string> values = axis.values;
    if (isProcesses(axis.key)) return processOrder(values);
    if (memoryExponent(axis.key) <= 0) return values;
    std::stable_sort(values.begin(), values.end(), [&](const auto& a, const auto& b) {
        return numberOf(axis.key, a) < numberOf(axis.key, b);
    });
    values.erase(std::unique(values.begin(), values.end(),
                             [&](const auto& a, const auto& b) {
                                 return numberOf(axis.key, a) == numberOf(axis.key, b);
                             }),
                 values.end());
    return values;
}

SweepPoint makePoint(const SweepSpec& spec, size_t index,
                     std::vector<std::pair<std::string, std::string>> values,
                     const DeviceSupportCheck& device_support) {
    SweepPoint p;
    p.index = index;
    p.values = std::move(values);
    ExperimentConfig config = spec.base;
    std::string suffix;
    for (const auto& [key, value] : p.values) {
        if (isProcesses(key))
            p.processes = processCount(value);
        else
            applyOverride(config, key + "=" + value);
        suffix += "_" + key + "=" + value;
    }
    p.config = measuredRunConfig(config, spec.steps, spec.warmup, spec.validate,
                                 spec.val_batches > 0 ? spec.val_batches : config.val_max_steps);
    p.config.name = spec.base.name + "-sweep" + suffix;
    p.dir_name = safeName("point_" + std::to_string(index) + suffix);
    const auto issues = validateConfigWith(p.config, device_support);
    if (!issues.empty()) throw ConfigError("sweep point " + p.label(), issues);
    return p;
}

// Index of the first swept memory key, -1 when none.
int memoryAxis(const SweepSpec& spec) {
    for (size_t i = 0; i < spec.axes.size(); ++i)
        if (memoryExponent(spec.axes[i].key) > 0) return int(i);
    return -1;
}

bool sameLine(const SweepPoint& a, const SweepPoint& b, int axis) {
    for (size_t i = 0; i < a.values.size(); ++i)
        if (int(i) != axis && a.values[i].second != b.values[i].second) return false;
    return true;
}

// Guards `point` with the rows measured before it on its line; the returned
// row is Skipped when it must not run.
SweepRow guard(const SweepSpec& spec, const SweepPoint& point, const std::vector<SweepRow>& done,
               PointRunner& runner) {
    SweepRow row;
    row.point = point;
    row.result.outcome = PointOutcome::Completed;
    row.available_bytes = runner.availableMemoryBytes(point.config);
    const int axis = memoryAxis(spec);
    if (axis < 0) return row;
    const auto& key = spec.axes[axis].key;
    const double x = numberOf(key, point.values[axis].second);
    std::vector<MeasuredMemory> samples;
    for (const auto& prior : done) {
        if (!sameLine(prior.point, point, axis)) continue;
        const auto& prior_value = prior.point.values[axis].second;
        const bool failed_for_memory =
            prior.result.outcome == PointOutcome::OutOfMemory ||
            (prior.result.outcome == PointOutcome::Skipped && prior.predicted_bytes > 0);
        if (failed_for_memory && numberOf(key, prior_value) <= x) {
            row.result.outcome = PointOutcome::Skipped;
            row.result.message = "not run: the smaller point " + key + "=" + prior_value +
                                 (prior.result.outcome == PointOutcome::OutOfMemory
                                      ? " ran out of memory"
                                      : " was already predicted not to fit");
            return row;
        }
        if (prior.result.outcome == PointOutcome::Completed)
            samples.push_back({numberOf(key, prior_value), prior.result.memory_bytes});
    }
    const auto decision = guardPoint(predictMemory(samples, x, memoryExponent(key)),
                                     row.available_bytes, spec.memory_margin);
    row.predicted_bytes = decision.predicted_bytes;
    if (!decision.run) {
        row.result.outcome = PointOutcome::Skipped;
        row.result.message = "not run: " + decision.reason;
    }
    return row;
}

void recordCommunication(SweepRow& row) {
    const auto& ranks = row.result.summary.distributed.ranks;
    if (row.result.summary.distributed.world_size < 2 || ranks.empty()) return;
    double allreduce = 0, wait = 0, overlap = 0;
    for (const auto& r : ranks) {
        allreduce += r.allreduce_ms_per_step;
        wait += r.comm_wait_ms_per_step;
        overlap += r.overlap_pct;
    }
    const double n = double(ranks.size());
    row.allreduce_ms = allreduce / n;
    row.comm_wait_ms = wait / n;
    row.overlap_pct = overlap / n;
}

} // namespace

std::string SweepPoint::label() const {
    std::string out;
    for (const auto& [key, value] : values)
        out += (out.empty() ? "" : ", ") + key + "=" + value;
    return out;
}

size_t SweepResult::completed() const {
    return size_t(std::count_if(rows.begin(), rows.end(), [](const SweepRow& r) {
        return r.result.outcome == PointOutcome::Completed;
    }));
}

std::vector<std::string> parseSweepValues(const std::string& list, const std::string& option) {
    std::string body = trim(list);
    if (body.size() >= 2 && body.front() == '[' && body.back() == ']')
        body = body.substr(1, body.size() - 2);
    std::vector<std::string> values;
    size_t start = 0;
    while (start <= body.size()) {
        const size_t comma = std::min(body.find(',', start), body.size());
        const std::string value = trim(body.substr(start, comma - start));
        if (value.empty())
            throw ConfigError(option + " \"" + list +
                              "\": expected a comma-separated list of values such as 16,32,64");
        values.push_back(value);
        start = comma + 1;
    }
    return values;
}

std::vector<SweepPoint> expandSweep(const SweepSpec& spec,
                                    const DeviceSupportCheck& device_support) {
    if (spec.axes.empty() || spec.axes.size() > 2)
        throw ConfigError("a sweep needs one key (--key) or two (--key and --key2)");
    if (spec.axes.size() == 2 && spec.axes[0].key == spec.axes[1].key)
        throw ConfigError("--key and --key2 are both " + spec.axes[0].key +
                          "; a grid needs two different keys");
    for (const auto& axis : spec.axes) {
        const auto& keys = configKeys();
        if (!isProcesses(axis.key) && std::find(keys.begin(), keys.end(), axis.key) == keys.end())
            throw ConfigError("sweep key \"" + axis.key +
                              "\" is not a config key (e.g. batch_size, precision, workers) nor " +
                              kProcessesKey);
    }
    if (spec.steps < 1) throw ConfigError("--steps must be at least 1");
    if (spec.warmup < 0) throw ConfigError("--warmup must not be negative");
    const auto first = runOrder(spec.axes[0]);
    const auto second =
        spec.axes.size() == 2 ? runOrder(spec.axes[1]) : std::vector<std::string>{""};
    std::vector<SweepPoint> points;
    for (const auto& a : first)
        for (const auto& b : second) {
            std::vector<std::pair<std::string, std::string>> values = {{spec.axes[0].key, a}};
            if (spec.axes.size() == 2) values.emplace_back(spec.axes[1].key, b);
            points.push_back(makePoint(spec, points.size(), std::move(values), device_support));
        }
    return points;
}

namespace {

// Levels, the best point and every point's gain against it.
void summarizeRounds(const SweepSpec& spec, SweepResult& result) {
    SweepRow* best = nullptr;
    for (auto& row : result.rows) {
        row.best = false;
        row.vs_best = {};
        row.level = repeatedLevel(row.round_images_per_sec, spec.confidence);
        if (row.result.outcome == PointOutcome::Completed && row.level.samples > 0 &&
            (!best || row.level.value > best->level.value))
            best = &row;
    }
    if (!best) return;
    best->best = true;
    for (auto& row : result.rows)
        if (&row != best && row.level.samples > 0)
            row.vs_best =
                pairedGain(best->round_images_per_sec, row.round_images_per_sec, spec.confidence);
}

// Runs the rounds after the first over the points that completed in it, in
// reverse order every other round.
void repeatRounds(const SweepSpec& spec, PointRunner& runner, const std::filesystem::path& out_dir,
                  SweepResult& result, double first_round_s, const SweepProgress& progress) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    for (int round = 2; round <= spec.repeat; ++round) {
        const double elapsed =
            first_round_s + std::chrono::duration<double>(Clock::now() - start).count();
        const double per_round = elapsed / (round - 1);
        if (runner.cancelled() || (spec.budget_s > 0 && elapsed + per_round > spec.budget_s))
            return;
        std::vector<size_t> order;
        for (size_t i = 0; i < result.rows.size(); ++i)
            if (result.rows[i].result.outcome == PointOutcome::Completed) order.push_back(i);
        if (round % 2 == 0) std::reverse(order.begin(), order.end());
        result.rounds = round;
        for (auto& row : result.rows) // a gap for each point until its run is in
            row.round_images_per_sec.resize(size_t(round),
                                            std::numeric_limits<double>::quiet_NaN());
        for (size_t i : order) {
            if (runner.cancelled()) return;
            SweepRow& row = result.rows[i];
            const PointResult r = runner.runJob(
                row.point.config, out_dir / (row.point.dir_name + "_round" + std::to_string(round)),
                row.point.processes);
            if (r.outcome == PointOutcome::Completed)
                row.round_images_per_sec.back() = r.summary.median_images_per_sec;
            summarizeRounds(spec, result); // so that reports written mid-way show the rounds
            if (progress) progress(row, result);
        }
    }
}

} // namespace

SweepResult runSweep(const SweepSpec& spec, PointRunner& runner,
                     const std::filesystem::path& out_dir, const SweepProgress& progress) {
    if (spec.repeat < 1) throw ConfigError("--repeat must be at least 1");
    if (!(spec.budget_s >= 0)) throw ConfigError("--budget must not be negative");
    if (!(spec.confidence > 0 && spec.confidence < 1))
        throw ConfigError("--confidence must lie between 0 and 1 (e.g. 0.95)");
    const auto start = std::chrono::steady_clock::now();
    SweepResult result;
    result.spec = spec;
    for (const auto& point : expandSweep(spec, runner.deviceSupport())) {
        SweepRow row = guard(spec, point, result.rows, runner);
        if (runner.cancelled()) {
            row.result.outcome = PointOutcome::Skipped;
            row.result.message = kNotRunCancelled;
        } else if (row.result.outcome != PointOutcome::Skipped) {
            row.result = runner.runJob(point.config, out_dir / point.dir_name, point.processes);
        }
        recordCommunication(row);
        row.round_images_per_sec.push_back(row.result.outcome == PointOutcome::Completed
                                               ? row.result.summary.median_images_per_sec
                                               : std::numeric_limits<double>::quiet_NaN());
        result.rows.push_back(std::move(row));
        if (progress) progress(result.rows.back(), result);
    }
    result.rounds = 1;
    repeatRounds(spec, runner, out_dir, result,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                 progress);
    summarizeRounds(spec, result);
    return result;
}

} // namespace ts
