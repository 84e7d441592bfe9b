#pragma once
// Rules over a measured run: each looks at the step breakdown, the
// environment and (when the run was profiled) the operator table, and when it
// fires says what to change, citing the figures that made it fire. No torch.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/OpStats.h"
#include "records/Records.h"

namespace ts {

enum class AdviceSeverity { Info, Suggestion, Warning };
const char* toString(AdviceSeverity severity);

struct Advice {
    std::string rule; // stable id, e.g. "data-wait"
    AdviceSeverity severity = AdviceSeverity::Info;
    std::string message; // one or two sentences with the figures
};

struct AdviceInput {
    RunInfo info; // config and environment
    RunSummary summary;
    const OpTable* ops = nullptr; // optional operator statistics of profiled steps
    int64_t profiled_steps = 0;   // how many steps `ops` covers (device-idle rule)
    // Optional per-step records. With them, a rule on a share of the step
    // (data wait, copy, compute) fires only when the interval of that share
    // over the steady-state steps clears its threshold, not on noise around it.
    const std::vector<StepRecord>* steps = nullptr;
};

// Thresholds, shared with the documentation.
namespace advice_limits {
inline constexpr double kDataWaitShare = 0.05; // of the step
inline constexpr double kDataWaitSevere = 0.20;
inline constexpr double kCopyShare = 0.05;
inline constexpr double kDeviceBusyShare = 0.60;   // below: device idle between ops
inline constexpr double kSkippedStepShare = 0.02;  // fp16 overflow skips
inline constexpr double kMemoryHeadroom = 0.40;    // peak below this share of the device
inline constexpr double kPageFaultsPerStep = 4096; // 16 MiB of 4 KiB pages mapped again per step
inline constexpr double kComputeShareForThreads = 0.5; // forward + backward, of the step
inline constexpr double kOptimizerShare = 0.10;        // a per-parameter optimizer, of the step
} // namespace advice_limits

// Every rule that fires, most severe first (rule order within a severity).
std::vector<Advice> adviseRun(const AdviceInput& input);
// The ids of all rules, in evaluation order.
const std::vector<std::string>& adviceRuleIds();

} // namespace ts
