#pragma once
// One measured run of a config, as sweeps and the optimization ladder see it.
// The interface lets their bookkeeping be tested with a fake; the real one is
// TrainerPointRunner. No torch.
#include <cstdint>
#include <filesystem>
#include <string>

#include "config/ExperimentConfig.h"
#include "records/Records.h"

namespace ts {

enum class PointOutcome { Completed, Failed, OutOfMemory, Skipped };

// The message of points and rungs not run because the user cancelled.
inline constexpr const char* kNotRunCancelled = "not run: cancelled";
const char* toString(PointOutcome outcome);

struct PointResult {
    PointOutcome outcome = PointOutcome::Failed;
    RunSummary summary;  // what was measured (partial when the run failed)
    std::string message; // error, OOM text or skip reason
    std::filesystem::path run_dir;
    // Memory the point needed above the idle process: peak device allocation
    // on CUDA, peak resident set growth on the host. 0 = unknown.
    int64_t memory_bytes = 0;

    // Validation accuracy when measured, else training accuracy, else NaN.
    double accuracy() const;
};

class PointRunner {
public:
    virtual ~PointRunner() = default;
    // Runs `config`, recording the run into `run_dir`. Never throws for
    // failures of the run itself: they come back as Failed / OutOfMemory.
    virtual PointResult run(const ExperimentConfig& config,
                            const std::filesystem::path& run_dir) = 0;
    // The same as a data-parallel job of `processes` local ranks (each with
    // config's per-rank batch); the summary's images/s is the job's global
    // rate. This default runs one process and fails the others.
    virtual PointResult runJob(const ExperimentConfig& config, const std::filesystem::path& run_dir,
                               int processes);
    // Bytes a point on config.device can still use, in the same terms as
    // PointResult::memory_bytes.
    virtual int64_t availableMemoryBytes(const ExperimentConfig& config) = 0;
    // True once the user asked to stop: sweeps and the ladder then record the
    // points not yet run as skipped and return what was measured.
    virtual bool cancelled() const { return false; }
    // Which device and precision this runner can run (config validation of
    // its points): LibTorch's answer for the real runners.
    virtual DeviceSupportCheck deviceSupport() const = 0;
};

// True for the messages allocators give when memory runs out (CUDA caching
// allocator, c10's CPU allocator, std::bad_alloc).
bool isOutOfMemoryMessage(const std::string& message);

// `base` turned into a short measured run: one epoch of warmup + steps
// steps, the first `warmup` left out of the medians, no profiling and no
// checkpoints; validation (capped at `val_batches`, 0 = whole split) only
// when `validate`.
ExperimentConfig measuredRunConfig(const ExperimentConfig& base, int64_t steps, int64_t warmup,
                                   bool validate, int64_t val_batches);

} // namespace ts
