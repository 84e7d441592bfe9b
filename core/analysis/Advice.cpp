#include "analysis/Advice.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <functional>

#include "analysis/NoiseInterval.h"
#include "util/ProcessMemory.h"

namespace ts {
namespace {

using namespace advice_limits;

std::string format(const char* pattern, ...) {
    char text[1024];
    va_list args;
    va_start(args, pattern);
    std::vsnprintf(text, sizeof(text), pattern, args);
    va_end(args);
    return text;
}

bool onCuda(const AdviceInput& in) {
    return in.info.config.device.rfind("cuda", 0) == 0;
}

double stepMs(const AdviceInput& in) {
    return in.summary.median_step_ms;
}

// Share of the step spent in `ms`; 0 when there is no measured step.
double shareOfStep(const AdviceInput& in, double ms) {
    return stepMs(in) > 0 ? ms / stepMs(in) : 0;
}

double computeMs(const AdviceInput& in) {
    return in.summary.median_phases.forward_ms + in.summary.median_phases.backward_ms;
}

// A share of the step: the summary's, and with the steps at hand the
// interval of the per-step share's median over the steady-state steps.
struct Share {
    double value = 0;
    LevelInterval interval; // confidence 0 without steps
    bool above(double threshold) const {
        return interval.confidence > 0 ? interval.low > threshold : value > threshold;
    }
    // " (95% interval 4.8-5.6% over 180 steps)", or nothing without steps.
    std::string note() const {
        if (interval.confidence <= 0) return {};
        return format(" (%.0f%% interval %.1f-%.1f%% over %d steps)", interval.confidence * 100,
                      interval.low * 100, interval.high * 100, interval.samples);
    }
};

Share shareOf(const AdviceInput& in, double ms, double (*phase)(const PhaseTimes&)) {
    Share share;
    share.value = shareOfStep(in, ms);
    if (!in.steps) return share;
    std::vector<double> shares;
    const int warmup = in.info.config.warmup_steps_excluded;
    for (const StepRecord& step : *in.steps)
        if (step.step >= warmup && step.step_ms > 0 && !step.profiled)
            shares.push_back(phase(step.phases) / step.step_ms);
    // Too few steps for a bootstrap to mean anything: keep the point value.
    if (shares.size() >= 8) share.interval = medianInterval(shares);
    return share;
}

double dataPhase(const PhaseTimes& p) {
    return p.data_ms;
}
double copyPhase(const PhaseTimes& p) {
    return p.copy_ms;
}
double computePhase(const PhaseTimes& p) {
    return p.forward_ms + p.backward_ms;
}
double optimizerPhase(const PhaseTimes& p) {
    return p.optimizer_ms;
}

double mib(int64_t bytes) {
    return double(bytes) / (1024.0 * 1024.0);
}

using Rules = std::vector<Advice>;

void dataWait(const AdviceInput& in, Rules& out) {
    const double data = in.summary.median_phases.data_ms;
    const Share measured = shareOf(in, data, dataPhase);
    const double share = measured.value;
    if (!measured.above(kDataWaitShare)) return;
    const int workers = in.info.config.workers;
    const int cores = std::max(1, in.info.env.logical_cores);
    std::string fix =
        workers == 0
            ? format("set workers=%d so batches are prepared while the model trains",
                     std::clamp(cores / 2, 1, 8))
            : format("add loader workers (now %d, the machine has %d logical cores) or make "
                     "augmentation cheaper",
                     workers, cores);
    out.push_back({"data-wait",
                   share > kDataWaitSevere ? AdviceSeverity::Warning : AdviceSeverity::Suggestion,
                   format("Waiting for data takes %.2f ms of a %.2f ms step (%.1f%%%s): %s.", data,
                          stepMs(in), share * 100, measured.note().c_str(), fix.c_str())});
}

void hostToDeviceCopy(const AdviceInput& in, Rules& out) {
    const double copy = in.summary.median_phases.copy_ms;
    const Share measured = shareOf(in, copy, copyPhase);
    const double share = measured.value;
    if (!onCuda(in) || !measured.above(kCopyShare)) return;
    if (!in.info.config.pin_memory) {
        out.push_back({"pinned-memory", AdviceSeverity::Suggestion,
                       format("The host-to-device copy takes %.2f ms of a %.2f ms step (%.1f%%%s) "
                              "from pageable memory: set pin_memory=true so batches are copied "
                              "from page-locked buffers, asynchronously.",
                              copy, stepMs(in), share * 100, measured.note().c_str())});
    } else {
        out.push_back({"pinned-memory", AdviceSeverity::Info,
                       format("The host-to-device copy takes %.2f ms of a %.2f ms step (%.1f%%%s) "
                              "even from pinned memory: the input pipeline is bandwidth-bound; "
                              "send uint8 images and normalise on the device.",
                              copy, stepMs(in), share * 100, measured.note().c_str())});
    }
}

// Share of self CPU time in matrix-multiply operators, -1 without a table.
double matmulShare(const OpTable* ops) {
    if (!ops || ops->total_self_cpu_ns <= 0) return -1;
    int64_t ns = 0;
    for (const auto& row : ops->rows) {
        const std::string& n = row.name;
        if (n == "aten::mm" || n == "aten::addmm" || n == "aten::bmm" || n == "aten::matmul" ||
            n == "aten::baddbmm" || n == "MmBackward0" || n == "AddmmBackward0")
            ns += row.self_cpu_ns;
    }
    return double(ns) / double(ops->total_self_cpu_ns);
}

void referenceBlas(const AdviceInput& in, Rules& out) {
    const auto& env = in.info.env;
    if (!env.reference_blas) return;
    const double share = matmulShare(in.ops);
    const std::string cited =
        share >= 0 ? format(" Matrix-multiply operators take %.1f%% of self CPU time in this "
                            "profile.",
                            share * 100)
                   : std::string();
    out.push_back({"reference-blas", AdviceSeverity::Warning,
                   "LibTorch is linked against the unoptimised reference BLAS (" +
                       env.blas_library +
                       "), so matrix multiplications run far below the "
                       "machine's speed." +
                       cited +
                       " Install OpenBLAS (apt install libopenblas0-pthread) and select it with "
                       "update-alternatives --config libblas.so.3-x86_64-linux-gnu."});
}

void precision(const AdviceInput& in, Rules& out) {
    const auto& c = in.info.config;
    const auto& env = in.info.env;
    const double compute = computeMs(in), share = shareOfStep(in, compute);
    if (c.precision == "bf16" && !onCuda(in) && !env.cpuHasNativeBf16()) {
        out.push_back({"mixed-precision", AdviceSeverity::Warning,
                       format("bf16 autocast runs on a CPU without AVX512-BF16 or AMX (%s): "
                              "bf16 is emulated there and usually slower than fp32 "
                              "(forward + backward take %.2f ms of a %.2f ms step).",
                              env.cpu_model.c_str(), compute, stepMs(in))});
        return;
    }
    if (c.precision != "fp32" || stepMs(in) <= 0) return;
    std::string fix;
    if (onCuda(in))
        fix = "use precision=fp16 (with loss scaling) or bf16 on GPUs of compute capability 8.0+, "
              "which run convolutions and matrix multiplications on tensor cores";
    else if (env.cpuHasNativeBf16())
        fix = "this CPU has native bf16 (AVX512-BF16/AMX): use precision=bf16";
    else
        return;
    out.push_back({"mixed-precision", AdviceSeverity::Suggestion,
                   format("Forward and backward take %.2f ms of a %.2f ms step (%.1f%%) in fp32: "
                          "%s.",
                          compute, stepMs(in), share * 100, fix.c_str())});
}

void deviceIdle(const AdviceInput& in, Rules& out) {
    if (!onCuda(in) || !in.ops || in.ops->total_self_device_ns <= 0 || in.profiled_steps <= 0 ||
        stepMs(in) <= 0)
        return;
    const double busy_ms = double(in.ops->total_self_device_ns) / 1e6 / double(in.profiled_steps);
    const double busy = busy_ms / stepMs(in);
    if (busy >= kDeviceBusyShare) return;
    out.push_back(
        {"device-idle", AdviceSeverity::Suggestion,
         format("The GPU computes for %.2f ms of each %.2f ms step (%.1f%% busy over %lld "
                "profiled steps) and waits between kernels the rest of the time: a "
                "larger batch (e.g. batch_size=%d, if it fits) gives each kernel more "
                "work per launch.",
                busy_ms, stepMs(in), busy * 100, (long long)in.profiled_steps,
                in.info.config.batch_size * 2)});
}

void memoryHeadroom(const AdviceInput& in, Rules& out) {
    if (!onCuda(in) || in.summary.peak_device_bytes <= 0) return;
    int64_t total = 0;
    for (const auto& d : in.info.env.cuda_devices)
        total = std::max(total, d.total_memory);
    if (total <= 0 || double(in.summary.peak_device_bytes) >= kMemoryHeadroom * double(total))
        return;
    out.push_back({"memory-headroom", AdviceSeverity::Info,
                   format("Peak device memory is %.0f MiB of %.0f MiB (%.1f%%): there is room for "
                          "a larger batch; `trainscope-cli sweep --key batch_size` finds the "
                          "fastest one that fits.",
                          mib(in.summary.peak_device_bytes), mib(total),
                          100.0 * double(in.summary.peak_device_bytes) / double(total))});
}

void intraOpThreads(const AdviceInput& in, Rules& out) {
    // Operators on fewer threads than the cores this process may use, in a
    // step made mostly of operators. LibTorch's own default (one thread per
    // physical core as it counts them) is one on a 2-core VM, where two
    // threads trained 62% faster; runs recorded with it are flagged too.
    const auto& env = in.info.env;
    const int cores = env.usable_cores > 0 ? env.usable_cores : env.logical_cores;
    const Share measured = shareOf(in, computeMs(in), computePhase);
    const double share = measured.value;
    if (onCuda(in) || env.intra_op_threads <= 0 || cores <= 1 || env.intra_op_threads >= cores ||
        !measured.above(advice_limits::kComputeShareForThreads))
        return;
    const std::string chosen = in.info.config.threads > 0
                                   ? format("threads=%d", in.info.config.threads)
                                   : std::string("LibTorch's default");
    out.push_back({"intra-op-threads", AdviceSeverity::Suggestion,
                   format("%s ran operators on %d intra-op thread(s) while this process may use "
                          "%d cores (its CPU affinity), and forward + backward take %.2f ms of a "
                          "%.2f ms step (%.0f%%): set threads=0 (the usable cores) or "
                          "threads=%d.",
                          chosen.c_str(), env.intra_op_threads, cores, computeMs(in), stepMs(in),
                          100.0 * share, cores)});
}

void skippedSteps(const AdviceInput& in, Rules& out) {
    const auto& s = in.summary;
    if (s.steps_completed <= 0) return;
    const double share = double(s.skipped_steps) / double(s.steps_completed);
    if (share <= kSkippedStepShare) return;
    out.push_back({"fp16-overflow", AdviceSeverity::Warning,
                   format("%lld of %lld optimizer steps (%.1f%%) were skipped because fp16 "
                          "gradients overflowed: lower the learning rate, or use bf16, which has "
                          "fp32's range.",
                          (long long)s.skipped_steps, (long long)s.steps_completed, share * 100)});
}

void cudnnBenchmark(const AdviceInput& in, Rules& out) {
    const auto& c = in.info.config;
    if (!onCuda(in) || c.cudnn_benchmark || c.deterministic) return;
    out.push_back({"cudnn-benchmark", AdviceSeverity::Info,
                   format("cudnn_benchmark is off although every batch has the same shape "
                          "(batch %d): turning it on lets cuDNN time its convolution algorithms "
                          "once and keep the fastest.",
                          c.batch_size)});
}

void channelsLast(const AdviceInput& in, Rules& out) {
    const auto& c = in.info.config;
    if (!onCuda(in) || c.precision == "fp32" || c.channels_last) return;
    out.push_back({"channels-last", AdviceSeverity::Suggestion,
                   format("%s convolutions run on tensor cores fastest with NHWC tensors: set "
                          "channels_last=true (forward + backward take %.2f ms of a %.2f ms "
                          "step).",
                          c.precision.c_str(), computeMs(in), stepMs(in))});
}

void pageFaults(const AdviceInput& in, Rules& out) {
    const double faults = in.summary.median_page_faults;
    if (!std::isfinite(faults) || faults < kPageFaultsPerStep || in.info.config.retain_host_memory)
        return;
    out.push_back({"page-faults", AdviceSeverity::Suggestion,
                   format("The process took %.0f page faults per step (about %.0f MiB of 4 KiB "
                          "pages the kernel mapped and zeroed again in a %.2f ms step): set "
                          "retain_host_memory=true so freed memory is reused.",
                          faults, faults * kPageBytes / (1024.0 * 1024.0), stepMs(in))});
}

// torch::optim's loop over the parameters (run.json's optimizer_implementation
// names it and why) where the fused kernel would do: on LibTorch 2.x it ran
// SGD's phase in ~60% and AdamW's in ~25% of the loop's time
// (docs/benchmarks.md). A parameter that is not dense cannot use it.
void fusedOptimizer(const AdviceInput& in, Rules& out) {
    const std::string& impl = in.info.optimizer_implementation;
    if (impl.rfind("torch::optim::", 0) != 0 || impl.find("not dense") != std::string::npos) return;
    const double ms = in.summary.median_phases.optimizer_ms;
    const Share measured = shareOf(in, ms, optimizerPhase);
    if (!measured.above(kOptimizerShare)) return;
    const std::string fix = in.info.config.fused_optimizer
                                ? "Trainscope built on LibTorch 2.4 or later runs it as one "
                                  "fused kernel"
                                : "set fused_optimizer=true to run it as one fused kernel";
    out.push_back({"fused-optimizer", AdviceSeverity::Suggestion,
                   format("The optimizer step takes %.2f ms of a %.2f ms step (%.1f%%%s), "
                          "parameter by parameter (%s): %s.",
                          ms, stepMs(in), measured.value * 100, measured.note().c_str(),
                          impl.c_str(), fix.c_str())});
}

struct Rule {
    const char* id;
    std::function<void(const AdviceInput&, Rules&)> apply;
};

const std::vector<Rule>& rules() {
    static const std::vector<Rule> kRules = {
        {"data-wait", dataWait},
        {"pinned-memory", hostToDeviceCopy},
        {"reference-blas", referenceBlas},
        {"mixed-precision", precision},
        {"device-idle", deviceIdle},
        {"memory-headroom", memoryHeadroom},
        {"intra-op-threads", intraOpThreads},
        {"fp16-overflow", skippedSteps},
        {"cudnn-benchmark", cudnnBenchmark},
        {"channels-last", channelsLast},
        {"page-faults", pageFaults},
        {"fused-optimizer", fusedOptimizer},
    };
    return kRules;
}

} // namespace

const char* toString(AdviceSeverity severity) {
    switch (severity) {
    case AdviceSeverity::Warning:
        return "warning";
    case AdviceSeverity::Suggestion:
        return "suggestion";
    case AdviceSeverity::Info:
        return "info";
    }
    return "info";
}

std::vector<Advice> adviseRun(const AdviceInput& input) {
    std::vector<Advice> out;
    for (const auto& rule : rules())
        rule.apply(input, out);
    std::stable_sort(out.begin(), out.end(), [](const Advice& a, const Advice& b) {
        return static_cast<int>(a.severity) > static_cast<int>(b.severity);
    });
    return out;
}

const std::vector<std::string>& adviceRuleIds() {
    static const std::vector<std::string> kIds = [] {
        std::vector<std::string> ids;
        for (const auto& rule : rules())
            ids.push_back(rule.id);
        return ids;
    }();
    return kIds;
}

} // namespace ts
