#include "report/CompareNoise.h"

#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "config/ConfigJson.h"
#include "report/MarkdownTable.h"

namespace ts {
namespace {

double metricOf(const PhaseTimes& p, double step_ms, double images_per_sec, StepMetric metric) {
    switch (metric) {
    case StepMetric::ImagesPerSec:
        return images_per_sec;
    case StepMetric::StepMs:
        return step_ms;
    case StepMetric::DataMs:
        return p.data_ms;
    case StepMetric::CopyMs:
        return p.copy_ms;
    case StepMetric::ForwardMs:
        return p.forward_ms;
    case StepMetric::BackwardMs:
        return p.backward_ms;
    case StepMetric::OptimizerMs:
        return p.optimizer_ms;
    }
    return 0;
}

double summaryMetric(const RunSummary& s, StepMetric metric) {
    return metricOf(s.median_phases, s.median_step_ms, s.median_images_per_sec, metric);
}

// The configuration as far as speed is concerned.
std::string speedKey(const ExperimentConfig& config) {
    nlohmann::json j = configToJson(config);
    for (const char* key : {"name", "out_dir", "seed"})
        j.erase(key);
    return j.dump();
}

} // namespace

std::vector<double> steadyStepValues(const RunRecord& run, StepMetric metric) {
    std::vector<double> out;
    const int warmup = run.info.config.warmup_steps_excluded;
    for (const StepRecord& s : run.steps)
        if (s.step >= warmup && !s.profiled && s.step_ms > 0)
            out.push_back(metricOf(s.phases, s.step_ms, s.images_per_sec, metric));
    return out;
}

RunToRunNoise runToRunNoise(const std::vector<ComparedRun>& runs) {
    std::map<std::string, std::vector<const ComparedRun*>> by_config;
    for (const auto& r : runs)
        if (r.record.summary.median_step_ms > 0)
            by_config[speedKey(r.record.info.config)].push_back(&r);
    RunToRunNoise noise;
    std::vector<double> squares(kStepMetricCount, 0.0);
    std::vector<int> df(kStepMetricCount, 0);
    for (const auto& [key, group] : by_config) {
        if (group.size() < 2) continue;
        noise.groups.emplace_back();
        for (const ComparedRun* r : group)
            noise.groups.back().push_back(r->label);
        for (int m = 0; m < kStepMetricCount; ++m) {
            std::vector<double> logs;
            for (const ComparedRun* r : group) {
                const double v = summaryMetric(r->record.summary, StepMetric(m));
                if (v > 0) logs.push_back(std::log(v));
            }
            if (logs.size() < 2) continue;
            double mean = 0;
            for (double l : logs)
                mean += l / double(logs.size());
            for (double l : logs)
                squares[size_t(m)] += (l - mean) * (l - mean);
            df[size_t(m)] += int(logs.size()) - 1;
        }
    }
    for (int m = 0; m < kStepMetricCount; ++m)
        if (df[size_t(m)] > 0)
            noise.spread[size_t(m)] = std::sqrt(squares[size_t(m)] / df[size_t(m)]);
    noise.df = df[size_t(StepMetric::ImagesPerSec)];
    return noise;
}

GainInterval changeAgainst(const ComparedRun& base, const ComparedRun& run, StepMetric metric,
                           const RunToRunNoise& noise, double confidence) {
    GainInterval g = medianRatioInterval(steadyStepValues(base.record, metric),
                                         steadyStepValues(run.record, metric), confidence);
    if (!g.hasInterval() || noise.df <= 0) return g;
    // In log space: the steps' half-widths and the run-to-run term (two runs,
    // each off by `spread`) add in quadrature.
    const double centre = std::log1p(g.gain);
    const double extra = studentTQuantile(0.5 + confidence / 2, noise.df) *
                         noise.spread[size_t(metric)] * std::sqrt(2.0);
    const double below = centre - std::log1p(g.low), above = std::log1p(g.high) - centre;
    g.low = std::expm1(centre - std::hypot(below, extra));
    g.high = std::expm1(centre + std::hypot(above, extra));
    return g;
}

std::string compareNoiseNote(const RunToRunNoise& noise, double confidence) {
    std::string note = "Changes carry their " + fixed(confidence * 100, 0) +
                       "% interval, from a moving-block bootstrap over each run's steady-state "
                       "steps; \"within noise\" marks those whose interval holds 0. ";
    if (noise.df <= 0)
        return note +
               "No two runs here share a configuration, so the intervals cover step-to-step "
               "noise only; runs of one configuration differ by more on a shared machine (up to "
               "about 10%). Compare repeated runs, or use `sweep --repeat` and `ladder`, which "
               "interleave them, before acting on a difference of a few percent.";
    note += "Runs with the same configuration (";
    for (size_t g = 0; g < noise.groups.size(); ++g) {
        note += g ? "; " : "";
        for (size_t i = 0; i < noise.groups[g].size(); ++i)
            note += (i ? ", " : "") + noise.groups[g][i];
    }
    return note + ") measured the run-to-run noise: throughput differs by " +
           fixed(noise.spread[size_t(StepMetric::ImagesPerSec)] * 100, 1) +
           "% (standard deviation) between them, and every interval is widened by it.";
}

} // namespace ts
