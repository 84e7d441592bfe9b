#include "experiments/Ladder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <torch/torch.h>

#include "config/ConfigError.h"
#include "config/ThreadChoice.h"
#include "env/Devices.h"
#include "env/Environment.h"
#include "env/ValidateConfig.h"
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

// Fills speedup, gain, kept and decision of a measured rung.
void decide(RungRow& row, const LadderResult& so_far, double margin) {
    const auto& r = row.result;
    const double ips = r.summary.median_images_per_sec;
    if (r.outcome != PointOutcome::Completed) {
        row.decision = std::string("dropped: ") +
                       (r.outcome == PointOutcome::OutOfMemory ? "out of memory" : "run failed");
        return;
    }
    if (std::isnan(r.summary.final_train_loss) || std::isinf(r.summary.final_train_loss)) {
        row.decision = "dropped: the training loss became NaN/inf";
        return;
    }
    row.speedup = so_far.baseline_images_per_sec > 0 ? ips / so_far.baseline_images_per_sec : 0;
    row.gain = so_far.best_images_per_sec > 0 ? ips / so_far.best_images_per_sec - 1 : 0;
    char margin_text[16];
    std::snprintf(margin_text, sizeof(margin_text), "%.0f%%", margin * 100);
    if (row.gain > margin) {
        row.kept = true;
        row.decision = "kept: " + signedPercent(row.gain) + " over the best so far";
    } else if (row.gain >= 0) {
        row.decision =
            "dropped: " + signedPercent(row.gain) + " is within the " + margin_text + " margin";
    } else {
        row.decision = "dropped: " + signedPercent(row.gain) + " (slower)";
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

LadderContext probeLadderContext(const std::string& device) {
    const auto env = probeEnvironment();
    LadderContext c;
    c.cuda = device.rfind("cuda", 0) == 0;
    c.cuda_bf16 = c.cuda && precisionSupportProblem(device, "bf16").empty();
    c.cpu_native_bf16 = env.cpuHasNativeBf16();
    c.logical_cores = std::max(1, env.usable_cores > 0 ? env.usable_cores : env.logical_cores);
    c.default_threads = chooseIntraOpThreads(0, 0, c.logical_cores).threads;
    c.cpu_model = env.cpu_model.empty() ? "unknown model" : env.cpu_model;
    return c;
}

LadderResult runLadder(const LadderSpec& spec, const LadderContext& context, PointRunner& runner,
                       const std::filesystem::path& out_dir, const LadderProgress& progress) {
    if (spec.steps < 1) throw ConfigError("--steps must be at least 1");
    if (spec.warmup < 0) throw ConfigError("--warmup must not be negative");
    if (!(spec.keep_margin >= 0)) throw ConfigError("--margin must not be negative");
    LadderResult result;
    result.spec = spec;
    result.context = context;
    auto measured = [&](const ExperimentConfig& c) {
        return measuredRunConfig(c, spec.steps, spec.warmup, true, spec.val_batches);
    };
    const auto issues = validateConfig(measured(spec.base));
    if (!issues.empty()) throw ConfigError("experiment \"" + spec.base.name + "\"", issues);

    RungRow base{"baseline", "baseline", "", true, "", {}, 0, 0, true, "baseline", spec.base};
    base.result = runner.run(measured(spec.base), out_dir / runDirName(0, "baseline"));
    const bool ok = base.result.outcome == PointOutcome::Completed;
    result.baseline_images_per_sec = result.best_images_per_sec =
        ok ? base.result.summary.median_images_per_sec : 0;
    base.speedup = ok ? 1 : 0;
    base.kept = ok;
    base.decision = ok ? "baseline" : "baseline failed: " + base.result.message;
    result.best = spec.base;
    result.rows.push_back(base);
    if (progress) progress(result.rows.back(), result);
    size_t best_index = 0;
    for (size_t i = 0; i < rungs().size(); ++i) {
        const auto& def = rungs()[i];
        RungRow row{def.id, def.title, "", false, "", {}, 0, 0, false, "", {}};
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
            row.result = runner.run(measured(plan.config), out_dir / runDirName(i + 1, def.id));
            decide(row, result, spec.keep_margin);
        } else {
            row.result.outcome = PointOutcome::Skipped;
            row.result.message = plan.skip_reason;
            row.decision = "skipped";
        }
        if (row.kept) {
            result.best = plan.config;
            result.best_images_per_sec = row.result.summary.median_images_per_sec;
            best_index = result.rows.size();
        }
        result.rows.push_back(std::move(row));
        if (progress) progress(result.rows.back(), result);
    }
    return result;
}

} // namespace ts
