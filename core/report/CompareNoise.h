#pragma once
// How sure `compare` is of each change it reports. A run's steps give an
// interval of each median (moving-block bootstrap over the steady-state
// steps), but steps inside one run agree with each other more than runs do:
// two runs of one configuration differ by up to ±10% on shared machines.
// Where the compared runs include repeats (runs with the same configuration),
// their spread measures that run-to-run noise and widens every interval.
// Without repeats the report says the intervals cover step noise only.
// No torch, no Qt.
#include <string>
#include <vector>

#include "analysis/NoiseInterval.h"
#include "report/CompareRuns.h"

namespace ts {

// The per-step figures a comparison can bound.
enum class StepMetric { ImagesPerSec, StepMs, DataMs, CopyMs, ForwardMs, BackwardMs, OptimizerMs };
inline constexpr int kStepMetricCount = 7;

// The metric of each steady-state step (after the config's excluded warm-up
// steps of each epoch, outside profiling windows).
std::vector<double> steadyStepValues(const RunRecord& run, StepMetric metric);

struct RunToRunNoise {
    // Standard deviation of log(median) between runs of one configuration,
    // pooled over the groups, per StepMetric; 0 without repeats.
    std::vector<double> spread = std::vector<double>(kStepMetricCount, 0.0);
    int df = 0; // degrees of freedom behind it (runs minus groups); 0 = no repeats
    // Labels of the runs in each group of two or more with the same configuration.
    std::vector<std::vector<std::string>> groups;
};

// Groups runs whose configurations are equal apart from their name, output
// and seed (which do not change what is measured).
RunToRunNoise runToRunNoise(const std::vector<ComparedRun>& runs);

// Change of `run`'s median against `base`'s (0.1 = +10%), with the interval
// from both runs' steps, widened by the run-to-run noise when measured. No
// interval (rounds 0) where a median is 0 or steps are missing.
GainInterval changeAgainst(const ComparedRun& base, const ComparedRun& run, StepMetric metric,
                           const RunToRunNoise& noise, double confidence = kDefaultConfidence);

// The paragraph saying how the intervals were made and what they cover.
std::string compareNoiseNote(const RunToRunNoise& noise, double confidence = kDefaultConfidence);

} // namespace ts
