#pragma once
// Value types the engine emits through TrainerObserver. No torch, no Qt: the GUI,
// CLI, run records and analysis all consume these.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "config/ExperimentConfig.h"
#include "records/EnvironmentInfo.h"
#include "records/MemoryByCategory.h"

namespace ts {

// Phases of one training step; together with `other` they add up to step_ms.
struct PhaseTimes {
    double data_ms = 0;      // waiting for the loader
    double copy_ms = 0;      // host -> device copy (and layout conversion)
    double forward_ms = 0;   // forward + loss
    double backward_ms = 0;  // loss.backward()
    double optimizer_ms = 0; // (unscale,) optimizer.step(), zero_grad
    double other_ms = 0;     // bookkeeping between phases

    double total() const {
        return data_ms + copy_ms + forward_ms + backward_ms + optimizer_ms + other_ms;
    }
};

struct StepRecord {
    int epoch = 0;           // 0-based
    int64_t step = 0;        // 0-based within the epoch
    int64_t global_step = 0; // 0-based over the run (continues after resume)
    int batch_size = 0;
    PhaseTimes phases;
    double step_ms = 0;
    double images_per_sec = 0;
    double loss = 0;
    double lr = 0;
    int64_t correct = 0;   // correct predictions in this batch
    bool skipped = false;  // update left out: fp16 inf/nan gradients, or a non-finite loss (skip)
    double loss_scale = 0; // fp16 only
    int64_t tensor_bytes = 0;      // live CPU tensor bytes at step end
    int64_t tensor_peak_bytes = 0; // peak live CPU tensor bytes during the step
    int64_t rss_bytes = 0;         // process resident set at step end
    int64_t device_bytes = 0;      // CUDA allocator: allocated at step end
    int64_t device_peak_bytes = 0; // CUDA allocator peak during the step
    double wall_s = 0;             // seconds since the run started
    bool profiled = false;         // this step was inside an active profiling window
    // Page faults of the whole process during the step; each one is a page the
    // kernel had to map (and zero) again. -1: not recorded (older steps.csv).
    int64_t page_faults = 0;
    // Data-parallel runs: milliseconds gradient allreduces were in flight
    // during the step (their union, from launch to completion), and the part
    // of backward_ms spent waiting for them after autograd had finished (the
    // communication backward did not hide). 0 in one process.
    double allreduce_ms = 0;
    double comm_wait_ms = 0;
    // Memory by category on the training device (0s in older steps.csv).
    MemoryByCategory memory;
    // Slower than the recent steps beyond their noise: a user's script's
    // catch_slow (docs/script-probe.md), which then traces the next steps.
    bool slow = false;
};

struct EpochRecord {
    int epoch = 0;
    int64_t steps = 0;
    double epoch_time_s = 0; // training part of the epoch
    double val_time_s = 0;
    double images_per_sec = 0; // over the epoch's training part
    double train_loss = 0;
    double train_accuracy = 0; // 0..1
    bool has_val = false;
    double val_loss = std::numeric_limits<double>::quiet_NaN();
    double val_accuracy = std::numeric_limits<double>::quiet_NaN();
    double lr = 0; // at epoch end
};

// A run of the user's own Python script under Trainscope's probe
// (docs/script-probe.md): what ran, where, on what, and how it ended.
// Absent (empty `script` and `module`) for Trainscope's own runs.
struct ScriptSource {
    std::string script;            // the script's path, or empty for `-m module`
    std::string module;            // python -m MODULE
    std::vector<std::string> args; // the script's own arguments
    std::string cwd;
    std::string python; // the interpreter
    std::string python_version;
    std::string torch_version;
    std::string device;      // where the model's parameters were: cpu, cuda:0
    std::string device_name; // the GPU's name on CUDA
    int world_size = 1;      // ranks launched (torchrun)
    std::string exit_status; // ok | exception | exit | interrupted | killed | lost
    int exit_code = 0;       // the script's (128 + N when killed by signal N)
    double probe_overhead_us_per_step = 0;
    bool present() const { return !script.empty() || !module.empty(); }
};

struct RunInfo {
    ExperimentConfig config;
    EnvironmentInfo env;
    int64_t train_samples = 0;
    int64_t val_samples = 0;
    int64_t steps_per_epoch = 0; // after max_steps
    int64_t parameters = 0;
    double forward_macs = 0; // per image, analytic
    int start_epoch = 0;     // > 0 when resumed
    int64_t start_global_step = 0;
    std::string optimizer_implementation; // "fused SGD (at::_fused_sgd_)", ...
    ScriptSource source;                  // runs of the user's own script
};

// One rank of a data-parallel run, as run.json's distributed.ranks[] holds it.
struct RankSummary {
    int rank = 0;
    std::string host;
    double median_step_ms = 0;
    double median_images_per_sec = 0; // this rank's share of the global rate
    double allreduce_ms_per_step = 0; // median time allreduces were in flight
    double comm_wait_ms_per_step = 0; // median exposed wait after backward
    double overlap_pct = 0;           // allreduce time hidden behind backward
    std::string param_checksum;       // of the final parameters (hex)
};

// A data-parallel run (c10d); world_size 1 means a single process and no
// `distributed` block in run.json.
struct DistributedSummary {
    int world_size = 1;
    std::string backend; // gloo | nccl
    std::vector<RankSummary> ranks;
};

enum class RunStatus { Running, Completed, Cancelled, Failed };
const char* toString(RunStatus status);
RunStatus runStatusFromString(const std::string& text); // throws std::invalid_argument

struct RunSummary {
    RunStatus status = RunStatus::Running;
    std::string error; // Failed: what went wrong
    int64_t steps_completed = 0;
    int64_t skipped_steps = 0; // updates left out: fp16 overflow, non-finite loss (skip)
    int epochs_completed = 0;
    double total_time_s = 0;
    // Steady state: medians over steps after the first `warmup_steps_excluded`
    // of each epoch (all steps if that leaves none).
    double median_images_per_sec = 0;
    double median_step_ms = 0;
    PhaseTimes median_phases;
    double mean_epoch_time_s = 0;
    double final_train_loss = std::numeric_limits<double>::quiet_NaN();
    double final_train_accuracy = std::numeric_limits<double>::quiet_NaN();
    double final_val_loss = std::numeric_limits<double>::quiet_NaN();
    double final_val_accuracy = std::numeric_limits<double>::quiet_NaN();
    double best_val_accuracy = std::numeric_limits<double>::quiet_NaN();
    int64_t peak_tensor_bytes = 0;
    int64_t peak_rss_bytes = 0;
    int64_t peak_device_bytes = 0;
    // The categories of the step whose categories add up to the most.
    MemoryByCategory peak_memory;
    // Steady-state median of StepRecord::page_faults; NaN when not recorded.
    double median_page_faults = std::numeric_limits<double>::quiet_NaN();
    // Data-parallel runs: every rank's figures; median_images_per_sec above is
    // then the global rate (the ranks' sum).
    DistributedSummary distributed;
};

enum class LogLevel { Info, Warning, Error };

} // namespace ts
