#pragma once
// How far noise can move a measured speed: intervals for the ladder, sweeps,
// comparisons and advice, so that none of them reports noise as a finding.
//
// Two sources of samples, two methods:
// - Repeated runs (rounds). Runs of the same configuration differ by up to
//   ±10% on shared machines, more than the steps inside one run do, so a gain
//   is measured over paired rounds (best, candidate) run back to back in
//   alternating order, and the interval is Student's t over the per-round log
//   ratios. A bootstrap over rounds would be the other choice; with the 3 to 6
//   rounds a time budget allows, a percentile bootstrap of the median covers
//   far less than it claims (at most 75% with 3 rounds), t does not.
// - The steps of one run. Step times are autocorrelated (a slow stretch lasts
//   several steps), so the interval of a median comes from a moving-block
//   bootstrap. It covers step-to-step noise only: callers say so.
// No torch, no Qt.
#include <cstdint>
#include <string>
#include <vector>

namespace ts {

// The default confidence of every interval Trainscope reports.
inline constexpr double kDefaultConfidence = 0.95;

// A relative change (candidate / reference - 1) with its interval.
struct GainInterval {
    double gain = 0; // point estimate: geometric mean of the per-round ratios, minus 1
    double low = 0;  // interval, same units (-0.02 = -2%)
    double high = 0;
    int rounds = 0;        // samples behind it (rounds, or steps for a bootstrap)
    double spread = 0;     // standard deviation of the per-round log ratios (~ relative)
    double confidence = 0; // 0.9 = a 90% interval; 0 = no interval (fewer than 2 rounds)

    bool hasInterval() const { return confidence > 0; }
    // The whole interval lies above `margin` (a real gain of more than it).
    bool clearlyAbove(double margin) const { return hasInterval() && low > margin; }
    // The whole interval lies below `-margin` (a real loss of more than it).
    bool clearlyBelow(double margin) const { return hasInterval() && high < -margin; }
    // Zero lies inside: no measurable difference.
    bool withinNoise() const { return !hasInterval() || (low <= 0 && high >= 0); }
};

// A level (images/s of one configuration) with its interval.
struct LevelInterval {
    double value = 0; // geometric mean (rounds) or median (steps)
    double low = 0, high = 0;
    int samples = 0;
    double confidence = 0; // 0 = no interval
};

// Quantile of Student's t distribution with `df` degrees of freedom (df >= 1).
double studentTQuantile(double probability, int df);

// Gain of `candidate` over `reference`, paired by index (round i ran both).
// Values must be positive (images/s); pairs with a non-positive or non-finite
// value are left out. Fewer than 2 pairs give the gain without an interval.
GainInterval pairedGain(const std::vector<double>& reference, const std::vector<double>& candidate,
                        double confidence = kDefaultConfidence);

// Interval of a positive level over repeated runs: t over the log values.
LevelInterval repeatedLevel(const std::vector<double>& values,
                            double confidence = kDefaultConfidence);

// Interval of the median of a series of step samples by a moving-block
// bootstrap (blocks of about the cube root of n, at least 1). Deterministic
// for a given seed.
LevelInterval medianInterval(const std::vector<double>& samples,
                             double confidence = kDefaultConfidence, uint64_t seed = 1,
                             int resamples = 1000);

// Gain of one run's median over another's (two independent step series),
// by resampling both with the same moving-block bootstrap.
GainInterval medianRatioInterval(const std::vector<double>& reference,
                                 const std::vector<double>& candidate,
                                 double confidence = kDefaultConfidence, uint64_t seed = 1,
                                 int resamples = 1000);

// "+12.3% (+4.1% … +20.9%)", or "+12.3%" without an interval.
std::string formatGain(const GainInterval& gain);
// "+4.1% … +20.9%".
std::string formatGainRange(const GainInterval& gain);

} // namespace ts
