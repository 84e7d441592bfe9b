#include "experiments/Ladder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "config/ConfigError.h"
#include "experiments/MemoryGuard.h"

namespace ts {
namespace {

// What a rung would run, or why it does not apply.
struct RungPlan {
    std::string skip_reason; // non-empty: skipped
    ExperimentConfig config;
    std::string change;
};

RungPlan skip(std::string reason) {
    return {std::move(reason), {}, {}};
}

struct RungInputs {
    const ExperimentConfig& best;
    const LadderContext& context;
    const RungRow& best_row;
    const LadderSpec& spec;
    PointRunner& runner;
};

RungPlan change(const ExperimentConfig& best, std::string text,
                const std::function<void(ExperimentConfig&)>& edit) {
    RungPlan plan;
    plan.config = best;
    edit(plan.config);
    plan.change = std::move(text);
    return plan;
}

RungPlan workers(const RungInputs& in) {
    if (in.best.workers > 0)
        return skip("already on: " + std::to_string(in.best.workers) + " loader workers");
    const int n = std::clamp(in.context.logical_cores / 2, 1, 4);
    return change(in.best, "workers=" + std::to_string(n), [n](auto& c) { c.workers = n; });
}

RungPlan pinMemory(const RungInputs& in) {
    if (!in.context.cuda)
        return skip("pinned memory only speeds up host-to-device copies; the device is " +
                    in.best.device);
    if (in.best.pin_memory) return skip("already on");
    return change(in.best, "pin_memory=true", [](auto& c) { c.pin_memory = true; });
}

RungPlan channelsLast(const RungInputs& in) {
    if (in.best.channels_last) return skip("already on");
    return change(in.best, "channels_last=true", [](auto& c) { c.channels_last = true; });
}

RungPlan bf16(const RungInputs& in) {
    if (in.best.precision == "bf16") return skip("already on");
    if (in.context.cuda && !in.context.cuda_bf16)
        return skip("bf16 needs a GPU of compute capability 8.0 or newer");
    if (!in.context.cuda && !in.context.cpu_native_bf16)
        return skip("this CPU (" + in.context.cpu_model +
                    ") has no AVX512-BF16 or AMX: bf16 would be emulated and slower than fp32");
    return change(in.best, "precision=bf16", [](auto& c) { c.precision = "bf16"; });
}

RungPlan fp16(const RungInputs& in) {
    if (!in.context.cuda) return skip("fp16 with loss scaling needs a CUDA device");
    if (in.best.precision == "fp16") return skip("already on");
    return change(in.best, "precision=fp16 (loss scaling)", [](auto& c) { c.precision = "fp16"; });
}

RungPlan cudnnBenchmark(const RungInputs& in) {
    if (!in.context.cuda) return skip("the cuDNN autotuner exists only on CUDA devices");
    if (in.best.cudnn_benchmark) return skip("already on");
    return change(in.best, "cudnn_benchmark=true", [](auto& c) { c.cudnn_benchmark = true; });
}

RungPlan largerBatch(const RungInputs& in) {
    const int batch = in.best.batch_size * 2;
    if (batch > 65536) return skip("batch_size is already at its limit");
    RungPlan plan = change(in.best, "batch_size=" + std::to_string(batch) + " (2x)",
                           [batch](auto& c) { c.batch_size = batch; });
    const auto prediction =
        predictMemory({{double(in.best.batch_size), in.best_row.result.memory_bytes}}, batch, 1.0);
    const auto decision =
        guardPoint(prediction, in.runner.availableMemoryBytes(plan.config), in.spec.memory_margin);
    if (!decision.run) return skip("does not fit: " + decision.reason);
    return plan;
}

RungPlan threads(const RungInputs& in) {
    const int cores = in.context.logical_cores;
    const int current = in.best.threads > 0 ? in.best.threads : in.context.default_threads;
    if (current >= cores)
        return skip("already using " + std::to_string(current) + " intra-op threads on " +
                    std::to_string(cores) + " usable cores");
    // threads=1 (as in single-thread baselines) goes back to the default (the usable cores)
    // first.
    const int target = in.best.threads > 0 && in.context.default_threads > current ? 0 : cores;
    const int shown = target == 0 ? in.context.default_threads : target;
    return change(in.best,
                  "threads=" + std::to_string(target) +
                      (target == 0 ? " (default: " + std::to_string(shown) + ")" : ""),
                  [target](auto& c) { c.threads = target; });
}

struct RungDef {
    const char* id;
    const char* title;
    RungPlan (*plan)(const RungInputs&);
};

const std::vector<RungDef>& rungs() {
    static const std::vector<RungDef> kRungs = {
        {"workers", "loader workers", workers},
        {"pin-memory", "pinned memory", pinMemory},
        {"channels-last", "channels-last", channelsLast},
        {"bf16", "bf16 autocast", bf16},
        {"fp16", "fp16 + loss scaling", fp16},
        {"cudnn-benchmark", "cuDNN benchmark", cudnnBenchmark},
        {"larger-batch", "larger batch", largerBatch},
        {"threads", "intra-op threads", threads},
    };
    return kRungs;
}

std::string signedPercent(double gain) {
    char text[32];
    std::snprintf(text, sizeof(text), "%+.1f%%", gain * 100);
    return text;
}

std::string marginText(double margin) {
    char text[16];
    std::snprintf(text, sizeof(text), "%.0f%%", margin * 100);
    return text;
}

// The step phases a rung's change can shorten, and their name; none for
// changes that act on the whole step (a larger batch).
struct PhaseLimit {
    const char* name = nullptr;
    double ms = 0;
};

PhaseLimit phaseLimit(const std::string& rung, const PhaseTimes& p) {
    if (rung == "workers") return {"data phase", p.data_ms};
    if (rung == "pin-memory") return {"copy phase", p.copy_ms};
    if (rung == "channels-last" || rung == "bf16" || rung == "fp16" || rung == "cudnn-benchmark" ||
        rung == "threads")
        return {"compute (forward, backward and optimizer)",
                p.forward_ms + p.backward_ms + p.optimizer_ms};
    return {};
}

// Why a gain this large cannot come from the change: removing a phase of
// share s entirely speeds the step up by 1 / (1 - s) at most. Empty when it can.
std::string implausibility(const RungRow& row, const RunSummary& best) {
    const PhaseLimit limit = phaseLimit(row.id, best.median_phases);
    const double step = best.median_step_ms;
    // Runs without a step breakdown (all phases 0) say nothing about phases.
    if (!limit.name || step <= 0 || best.median_phases.total() <= 0 || !row.interval.hasInterval())
        return {};
    const double share = std::clamp(limit.ms / step, 0.0, 1.0);
    const double ceiling =
        share >= 1 ? std::numeric_limits<double>::infinity() : share / (1 - share);
    if (row.interval.low <= ceiling) return {};
    char text[256];
    std::snprintf(text, sizeof(text),
                  "the %s is %.2f ms of a %.2f ms step, so removing it entirely gains at most %s",
                  limit.name, limit.ms, step, signedPercent(ceiling).c_str());
    return text;
}

// Why a run cannot be compared: empty when it can. The loss counts for
// candidates only: a baseline whose loss diverges still has a speed.
std::string failureOf(const PointResult& r, bool loss_matters) {
    if (r.outcome == PointOutcome::OutOfMemory) return "out of memory";
    if (r.outcome != PointOutcome::Completed) return "run failed";
    if (loss_matters && !std::isfinite(r.summary.final_train_loss))
        return "the training loss became NaN/inf";
    return {};
}

std::vector<double> imagesPerSec(const std::vector<LadderRound>& rounds, bool candidate) {
    std::vector<double> out;
    for (const auto& r : rounds)
        out.push_back((candidate ? r.candidate : r.reference).summary.median_images_per_sec);
    return out;
}

// The candidate's gain over the reference, paired by round.
GainInterval roundsGain(const std::vector<LadderRound>& rounds, double confidence) {
    return pairedGain(imagesPerSec(rounds, false), imagesPerSec(rounds, true), confidence);
}

// The candidate's run whose images/s is the median of its rounds.
PointResult representative(const std::vector<LadderRound>& rounds) {
    std::vector<const PointResult*> runs;
    for (const auto& r : rounds)
        runs.push_back(&r.candidate);
    std::sort(runs.begin(), runs.end(), [](const PointResult* a, const PointResult* b) {
        return a->summary.median_images_per_sec < b->summary.median_images_per_sec;
    });
    return *runs[(runs.size() - 1) / 2];
}

// True once more rounds cannot change the decision.
bool decisive(const GainInterval& g, double margin) {
    return g.clearlyAbove(margin) || (g.hasInterval() && g.high <= margin);
}

// Fills speedup, gain, interval, kept and decision of a measured rung.
void decide(RungRow& row, const LadderResult& so_far, const RunSummary& best,
            const std::string& failure, double margin) {
    if (!failure.empty()) {
        row.decision = "dropped: " + failure;
        return;
    }
    const double ips = row.level.value;
    row.speedup = so_far.baseline_images_per_sec > 0 ? ips / so_far.baseline_images_per_sec : 0;
    row.gain = row.interval.gain;
    const std::string rounds =
        std::to_string(row.interval.rounds) + (row.interval.rounds == 1 ? " round" : " rounds");
    row.implausible = implausibility(row, best);
    if (!row.implausible.empty()) {
        row.decision = "dropped: " + formatGain(row.interval) + " is more than the change can " +
                       "give (" + row.implausible + "): noise or a side effect, " + rounds;
    } else if (row.interval.clearlyAbove(margin)) {
        row.kept = true;
        row.decision = "kept: " + formatGain(row.interval) + " over the best so far, " + rounds;
    } else if (row.interval.clearlyBelow(0)) {
        row.decision = "dropped: " + formatGain(row.interval) + " (slower), " + rounds;
    } else if (row.interval.low >= -margin && row.interval.high <= margin) {
        row.decision = "dropped: " + formatGain(row.interval) + " is within the " +
                       marginText(margin) + " margin, " + rounds;
    } else if (row.interval.withinNoise()) {
        row.decision = "dropped: no measurable effect (gain " + formatGainRange(row.interval) +
                       ", " + rounds + ")";
    } else {
        row.decision = "dropped: " + formatGain(row.interval) + " does not clear the " +
                       marginText(margin) + " margin, " + rounds;
    }
}

std::string runDirName(size_t index, const std::string& id) {
    return "rung_" + std::to_string(index) + "_" + id;
}

} // namespace

bool LadderResult::baseline_failed() const {
    return rows.empty() || rows.front().result.outcome != PointOutcome::Completed;
}

const std::vector<std::string>& ladderRungIds() {
    static const std::vector<std::string> kIds = [] {
        std::vector<std::string> ids = {"baseline"};
        for (const auto& r : rungs())
            ids.push_back(r.id);
        return ids;
    }();
    return kIds;
}

namespace {

struct Comparison {
    std::vector<LadderRound> rounds; // complete rounds
    std::string failure;             // why it stopped early, empty when it did not
    PointResult failed_run;          // the run that stopped it
    // A round cut short by Cancel leaves its first run here when that was the
    // reference (the baseline keeps it as its measurement).
    std::vector<PointResult> unpaired_reference;
};

// Rounds of (reference, candidate) in alternating order, so that a drift of
// the machine's speed during the comparison falls on both equally.
Comparison compareRounds(const LadderSpec& spec, PointRunner& runner,
                         const ExperimentConfig& reference, const ExperimentConfig& candidate,
                         const std::filesystem::path& dir, bool candidate_loss_matters) {
    Comparison c;
    // Runs one side of a round; false (and the comparison's failure) when it failed.
    auto run = [&](const ExperimentConfig& config, const std::string& name, bool is_candidate,
                   PointResult& into) {
        into = runner.run(
            measuredRunConfig(config, spec.steps, spec.warmup, true, spec.val_batches), dir / name);
        const std::string failure = failureOf(into, is_candidate && candidate_loss_matters);
        if (failure.empty()) return true;
        c.failure = is_candidate ? failure
                                 : "the best configuration failed on its re-run (" + failure + ")";
        c.failed_run = into;
        return false;
    };
    for (int r = 0; r < spec.max_rounds; ++r) {
        const std::string round_no = std::to_string(r + 1);
        LadderRound round;
        auto reference_side = [&] {
            return run(reference, "best_" + round_no, false, round.reference);
        };
        auto candidate_side = [&] {
            return run(candidate, "candidate_" + round_no, true, round.candidate);
        };
        const bool reference_first = r % 2 == 0;
        if (runner.cancelled()) break;
        if (!(reference_first ? reference_side() : candidate_side())) return c;
        if (runner.cancelled()) {
            if (reference_first) c.unpaired_reference.push_back(round.reference);
            break;
        }
        if (!(reference_first ? candidate_side() : reference_side())) return c;
        c.rounds.push_back(round);
        if (r + 1 < spec.rounds) continue;
        const GainInterval g = roundsGain(c.rounds, spec.confidence);
        if (decisive(g, spec.keep_margin)) break;
    }
    return c;
}

void checkSpec(const LadderSpec& spec) {
    if (spec.steps < 1) throw ConfigError("--steps must be at least 1");
    if (spec.warmup < 0) throw ConfigError("--warmup must not be negative");
    if (!(spec.keep_margin >= 0)) throw ConfigError("--margin must not be negative");
    if (spec.rounds < 2)
        throw ConfigError("--rounds must be at least 2: one round gives no interval, so noise "
                          "would pass for a gain");
    if (spec.max_rounds < spec.rounds)
        throw ConfigError("--max-rounds (" + std::to_string(spec.max_rounds) +
                          ") must be at least --rounds (" + std::to_string(spec.rounds) + ")");
    if (!(spec.confidence > 0 && spec.confidence < 1))
        throw ConfigError("--confidence must lie between 0 and 1 (e.g. 0.9)");
}

// The baseline against itself: its level and the noise floor.
RungRow runBaseline(const LadderSpec& spec, PointRunner& runner, const std::filesystem::path& dir,
                    LadderResult& result) {
    LadderSpec floor_spec = spec;
    floor_spec.max_rounds = spec.rounds; // a fixed number of rounds: nothing to decide
    const Comparison c = compareRounds(floor_spec, runner, spec.base, spec.base, dir, false);
    RungRow base;
    base.id = base.title = "baseline";
    base.ran = true;
    base.config = spec.base;
    base.rounds = c.rounds;
    if (!c.failure.empty()) {
        base.result = c.failed_run;
        base.decision = "baseline failed: " + base.result.message;
        return base;
    }
    if (c.rounds.empty() && c.unpaired_reference.empty()) {
        base.ran = false;
        base.result.outcome = PointOutcome::Skipped;
        base.result.message = base.skip_reason = kNotRunCancelled;
        base.decision = "skipped";
        return base;
    }
    std::vector<double> all = imagesPerSec(c.rounds, false);
    for (double v : imagesPerSec(c.rounds, true))
        all.push_back(v);
    for (const auto& run : c.unpaired_reference)
        all.push_back(run.summary.median_images_per_sec);
    base.level = repeatedLevel(all, spec.confidence);
    base.result = c.rounds.empty() ? c.unpaired_reference.front() : representative(c.rounds);
    result.noise_floor = roundsGain(c.rounds, spec.confidence);
    result.baseline_images_per_sec = result.best_images_per_sec = base.level.value;
    base.speedup = 1;
    base.kept = true;
    base.decision = result.noise_floor.hasInterval()
                        ? "baseline; two runs of it differ by " + formatGain(result.noise_floor)
                        : "baseline; cancelled before its noise floor was measured";
    return base;
}

} // namespace

LadderResult runLadder(const LadderSpec& spec, const LadderContext& context, PointRunner& runner,
                       const std::filesystem::path& out_dir, const LadderProgress& progress) {
    checkSpec(spec);
    LadderResult result;
    result.spec = spec;
    result.context = context;
    const auto issues = validateConfigWith(
        measuredRunConfig(spec.base, spec.steps, spec.warmup, true, spec.val_batches),
        runner.deviceSupport());
    if (!issues.empty()) throw ConfigError("experiment \"" + spec.base.name + "\"", issues);

    result.best = spec.base;
    result.rows.push_back(runBaseline(spec, runner, out_dir / runDirName(0, "baseline"), result));
    if (progress) progress(result.rows.back(), result);
    size_t best_index = 0;
    for (size_t i = 0; i < rungs().size(); ++i) {
        const auto& def = rungs()[i];
        RungRow row;
        row.id = def.id;
        row.title = def.title;
        const RungPlan plan =
            result.baseline_failed() ? skip("not run: the baseline failed")
            : runner.cancelled()
                ? skip(kNotRunCancelled)
                : def.plan({result.best, context, result.rows[best_index], spec, runner});
        row.skip_reason = plan.skip_reason;
        row.change = plan.change;
        row.config = plan.config;
        if (plan.skip_reason.empty()) {
            row.ran = true;
            const Comparison c = compareRounds(spec, runner, result.best, plan.config,
                                               out_dir / runDirName(i + 1, def.id), true);
            row.rounds = c.rounds;
            if (c.failure.empty() && c.rounds.empty()) {
                row.ran = false; // cancelled before a whole round
                row.skip_reason = kNotRunCancelled;
                row.result.outcome = PointOutcome::Skipped;
                row.result.message = kNotRunCancelled;
                row.decision = "skipped";
            } else if (c.failure.empty()) {
                row.interval = roundsGain(c.rounds, spec.confidence);
                row.level = repeatedLevel(imagesPerSec(c.rounds, true), spec.confidence);
                row.result = representative(c.rounds);
            } else {
                row.result = c.failed_run;
            }
            if (row.ran)
                decide(row, result, result.rows[best_index].result.summary, c.failure,
                       spec.keep_margin);
        } else {
            row.result.outcome = PointOutcome::Skipped;
            row.result.message = plan.skip_reason;
            row.decision = "skipped";
        }
        if (row.kept) {
            result.best = plan.config;
            result.best_images_per_sec = row.level.value;
            best_index = result.rows.size();
        }
        result.rows.push_back(std::move(row));
        if (progress) progress(result.rows.back(), result);
    }
    return result;
}

} // namespace ts
