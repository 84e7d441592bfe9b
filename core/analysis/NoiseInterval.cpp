#include "analysis/NoiseInterval.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <tuple>

namespace ts {
namespace {

// Continued fraction of the regularized incomplete beta function (modified
// Lentz), valid for x < (a + 1) / (a + b + 2).
double betaContinuedFraction(double a, double b, double x) {
    constexpr double kTiny = 1e-300;
    constexpr double kEpsilon = 1e-14;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (std::fabs(d) < kTiny ? kTiny : d);
    double result = d;
    for (int m = 1; m <= 500; ++m) {
        const double m2 = 2.0 * m;
        // Even step, then odd step of the fraction.
        for (const double term : {m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                                  -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))}) {
            d = 1 + term * d;
            d = 1 / (std::fabs(d) < kTiny ? kTiny : d);
            c = 1 + term / c;
            if (std::fabs(c) < kTiny) c = kTiny;
            result *= c * d;
        }
        if (std::fabs(c * d - 1) < kEpsilon) break;
    }
    return result;
}

// I_x(a, b).
double regularizedBeta(double a, double b, double x) {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                  a * std::log(x) + b * std::log1p(-x));
    if (x < (a + 1) / (a + b + 2)) return front * betaContinuedFraction(a, b, x) / a;
    return 1 - front * betaContinuedFraction(b, a, 1 - x) / b;
}

// P(T <= t) for t >= 0.
double studentTCdf(double t, int df) {
    const double v = df;
    return 1 - 0.5 * regularizedBeta(v / 2, 0.5, v / (v + t * t));
}

struct MeanAndSd {
    double mean = 0, sd = 0;
    int n = 0;
};

MeanAndSd meanAndSd(const std::vector<double>& xs) {
    MeanAndSd m;
    m.n = int(xs.size());
    if (xs.empty()) return m;
    for (double x : xs)
        m.mean += x;
    m.mean /= double(xs.size());
    if (xs.size() < 2) return m;
    double squares = 0;
    for (double x : xs)
        squares += (x - m.mean) * (x - m.mean);
    m.sd = std::sqrt(squares / double(xs.size() - 1));
    return m;
}

// Half-width of a t interval of the mean.
double tHalfWidth(const MeanAndSd& m, double confidence) {
    return studentTQuantile(0.5 + confidence / 2, m.n - 1) * m.sd / std::sqrt(double(m.n));
}

void checkConfidence(double confidence) {
    if (!(confidence > 0 && confidence < 1))
        throw std::invalid_argument("confidence must lie between 0 and 1, not " +
                                    std::to_string(confidence));
}

double median(std::vector<double>& xs) {
    const size_t mid = xs.size() / 2;
    std::nth_element(xs.begin(), xs.begin() + long(mid), xs.end());
    const double upper = xs[mid];
    if (xs.size() % 2 == 1) return upper;
    const double lower = *std::max_element(xs.begin(), xs.begin() + long(mid));
    return (lower + upper) / 2;
}

// One moving-block resample of `xs` into `out` (same length).
void blockResample(const std::vector<double>& xs, std::mt19937_64& rng, std::vector<double>& out) {
    const size_t n = xs.size();
    const size_t block = std::max<size_t>(1, size_t(std::lround(std::cbrt(double(n)))));
    const size_t starts = n - block + 1;
    out.clear();
    while (out.size() < n) {
        const size_t start = size_t(rng() % starts);
        for (size_t i = start; i < start + block && out.size() < n; ++i)
            out.push_back(xs[i]);
    }
}

// The (1 - confidence) / 2 and 1 - (1 - confidence) / 2 quantiles of `stats`.
std::pair<double, double> percentileRange(std::vector<double>& stats, double confidence) {
    std::sort(stats.begin(), stats.end());
    const auto at = [&](double p) {
        const double pos = p * double(stats.size() - 1);
        const auto i = size_t(pos);
        const double frac = pos - double(i);
        return i + 1 < stats.size() ? stats[i] * (1 - frac) + stats[i + 1] * frac : stats[i];
    };
    return {at((1 - confidence) / 2), at(1 - (1 - confidence) / 2)};
}

// Student's t interval of the mean of log values; without one (fewer than
// two values) low = high = mean and confidence 0.
struct LogInterval {
    double mean = 0, low = 0, high = 0, sd = 0, confidence = 0;
    int n = 0;
};

LogInterval tIntervalOfLogs(const std::vector<double>& logs, double confidence) {
    checkConfidence(confidence);
    const MeanAndSd m = meanAndSd(logs);
    LogInterval l;
    l.n = m.n;
    l.mean = l.low = l.high = m.mean;
    if (m.n < 2) return l;
    const double half = tHalfWidth(m, confidence);
    l.low = m.mean - half;
    l.high = m.mean + half;
    l.sd = m.sd;
    l.confidence = confidence;
    return l;
}

std::vector<double> positiveFinite(const std::vector<double>& xs) {
    std::vector<double> out;
    for (double x : xs)
        if (std::isfinite(x) && x > 0) out.push_back(x);
    return out;
}

std::string percentText(double share) {
    char text[32];
    std::snprintf(text, sizeof(text), "%+.1f%%", share * 100);
    return text;
}

} // namespace

double studentTQuantile(double probability, int df) {
    if (df < 1) throw std::invalid_argument("Student's t needs at least 1 degree of freedom");
    if (!(probability > 0 && probability < 1))
        throw std::invalid_argument("a quantile needs a probability between 0 and 1");
    if (probability < 0.5) return -studentTQuantile(1 - probability, df);
    if (probability == 0.5) return 0;
    double low = 0, high = 1;
    while (studentTCdf(high, df) < probability)
        high *= 2;
    for (int i = 0; i < 200 && high - low > 1e-12 * high; ++i) {
        const double mid = (low + high) / 2;
        (studentTCdf(mid, df) < probability ? low : high) = mid;
    }
    return (low + high) / 2;
}

GainInterval pairedGain(const std::vector<double>& reference, const std::vector<double>& candidate,
                        double confidence) {
    std::vector<double> logs;
    for (size_t i = 0; i < std::min(reference.size(), candidate.size()); ++i) {
        const double a = reference[i], b = candidate[i];
        if (std::isfinite(a) && std::isfinite(b) && a > 0 && b > 0) logs.push_back(std::log(b / a));
    }
    const LogInterval l = tIntervalOfLogs(logs, confidence);
    GainInterval g;
    g.rounds = l.n;
    if (l.n == 0) return g;
    g.gain = std::expm1(l.mean);
    g.low = std::expm1(l.low);
    g.high = std::expm1(l.high);
    g.spread = l.sd;
    g.confidence = l.confidence;
    return g;
}

LevelInterval repeatedLevel(const std::vector<double>& values, double confidence) {
    std::vector<double> logs;
    for (double v : positiveFinite(values))
        logs.push_back(std::log(v));
    const LogInterval l = tIntervalOfLogs(logs, confidence);
    LevelInterval level;
    level.samples = l.n;
    if (l.n == 0) return level;
    level.value = std::exp(l.mean);
    level.low = std::exp(l.low);
    level.high = std::exp(l.high);
    level.confidence = l.confidence;
    return level;
}

LevelInterval medianInterval(const std::vector<double>& samples, double confidence, uint64_t seed,
                             int resamples) {
    checkConfidence(confidence);
    std::vector<double> xs;
    for (double x : samples)
        if (std::isfinite(x)) xs.push_back(x);
    LevelInterval l;
    l.samples = int(xs.size());
    if (xs.empty()) return l;
    std::vector<double> copy = xs;
    l.value = l.low = l.high = median(copy);
    if (xs.size() < 2 || resamples < 2) return l;
    std::mt19937_64 rng(seed);
    std::vector<double> stats, resample;
    stats.reserve(size_t(resamples));
    for (int r = 0; r < resamples; ++r) {
        blockResample(xs, rng, resample);
        stats.push_back(median(resample));
    }
    std::tie(l.low, l.high) = percentileRange(stats, confidence);
    l.confidence = confidence;
    return l;
}

GainInterval medianRatioInterval(const std::vector<double>& reference,
                                 const std::vector<double>& candidate, double confidence,
                                 uint64_t seed, int resamples) {
    checkConfidence(confidence);
    // Zeros stay (a phase that is often 0 has a median of 0); only the
    // medians must be positive for a ratio.
    std::vector<double> a, b;
    for (double x : reference)
        if (std::isfinite(x)) a.push_back(x);
    for (double x : candidate)
        if (std::isfinite(x)) b.push_back(x);
    GainInterval g;
    if (a.empty() || b.empty()) return g;
    std::vector<double> ca = a, cb = b;
    const double ma = median(ca), mb = median(cb);
    if (!(ma > 0 && mb > 0)) return g;
    g.rounds = int(std::min(a.size(), b.size()));
    g.gain = g.low = g.high = mb / ma - 1;
    if (a.size() < 2 || b.size() < 2 || resamples < 2) return g;
    std::mt19937_64 rng(seed);
    std::vector<double> stats, ra, rb, logs;
    stats.reserve(size_t(resamples));
    for (int r = 0; r < resamples; ++r) {
        blockResample(a, rng, ra);
        blockResample(b, rng, rb);
        const double da = median(ra), db = median(rb);
        if (!(da > 0 && db > 0)) continue;
        stats.push_back(db / da - 1);
        logs.push_back(std::log(db / da));
    }
    // Resamples with a zero median: the ratio is too unstable to bound.
    if (stats.size() < size_t(resamples) * 9 / 10) return g;
    g.spread = meanAndSd(logs).sd;
    std::tie(g.low, g.high) = percentileRange(stats, confidence);
    g.confidence = confidence;
    return g;
}

std::string formatGainRange(const GainInterval& g) {
    return percentText(g.low) + " \u2026 " + percentText(g.high);
}

std::string formatGain(const GainInterval& g) {
    if (!g.hasInterval()) return percentText(g.gain);
    return percentText(g.gain) + " (" + formatGainRange(g) + ")";
}

} // namespace ts
