#include "experiments/PointRunner.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace ts {

const char* toString(PointOutcome outcome) {
    switch (outcome) {
    case PointOutcome::Completed:
        return "ok";
    case PointOutcome::Failed:
        return "failed";
    case PointOutcome::OutOfMemory:
        return "oom";
    case PointOutcome::Skipped:
        return "skipped";
    }
    return "failed";
}

double PointResult::accuracy() const {
    if (!std::isnan(summary.final_val_accuracy)) return summary.final_val_accuracy;
    return summary.final_train_accuracy;
}

PointResult PointRunner::runJob(const ExperimentConfig& config,
                                const std::filesystem::path& run_dir, int processes) {
    if (processes == 1) return run(config, run_dir);
    PointResult result;
    result.run_dir = run_dir;
    result.message =
        "this runner trains in one process only (processes=" + std::to_string(processes) +
        " needs trainscope-cli sweep)";
    return result;
}

bool isOutOfMemoryMessage(const std::string& message) {
    std::string lower(message);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    for (const char* pattern : {"out of memory", "can't allocate memory", "not enough memory",
                                "bad_alloc", "cudaerrormemoryallocation"})
        if (lower.find(pattern) != std::string::npos) return true;
    return false;
}

ExperimentConfig measuredRunConfig(const ExperimentConfig& base, int64_t steps, int64_t warmup,
                                   bool validate, int64_t val_batches) {
    ExperimentConfig c = base;
    c.epochs = 1;
    c.max_steps = warmup + steps;
    c.warmup_steps_excluded = static_cast<int>(warmup);
    c.val_every = validate ? 1 : 0;
    c.val_max_steps = val_batches;
    c.profile.enabled = false;
    c.checkpoint_every = 0;
    c.resume.clear();
    return c;
}

} // namespace ts
