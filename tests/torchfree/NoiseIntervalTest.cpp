// The intervals behind every "kept", "within noise" and advice decision:
// exact quantiles, exact gains on noise-free data, and coverage at the stated
// rate on data with known noise.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "SeededNoise.h"
#include "analysis/NoiseInterval.h"

namespace {

using Noise = ts::test::SeededNoise;

TEST(NoiseInterval, StudentQuantilesMatchTheTables) {
    EXPECT_NEAR(ts::studentTQuantile(0.95, 1), 6.3138, 1e-4);
    EXPECT_NEAR(ts::studentTQuantile(0.95, 2), 2.9200, 1e-4);
    EXPECT_NEAR(ts::studentTQuantile(0.95, 4), 2.1318, 1e-4);
    EXPECT_NEAR(ts::studentTQuantile(0.975, 10), 2.2281, 1e-4);
    EXPECT_NEAR(ts::studentTQuantile(0.95, 30), 1.6973, 1e-4);
    EXPECT_NEAR(ts::studentTQuantile(0.95, 100000), 1.6449, 1e-3);
    EXPECT_NEAR(ts::studentTQuantile(0.05, 4), -2.1318, 1e-4);
    EXPECT_EQ(ts::studentTQuantile(0.5, 3), 0);
    EXPECT_THROW(ts::studentTQuantile(0.95, 0), std::invalid_argument);
    EXPECT_THROW(ts::studentTQuantile(1.0, 3), std::invalid_argument);
}

TEST(NoiseInterval, NoiseFreeRoundsGiveTheExactGainWithAZeroWidthInterval) {
    const auto g = ts::pairedGain({100, 200, 50}, {120, 240, 60});
    EXPECT_NEAR(g.gain, 0.2, 1e-12);
    EXPECT_NEAR(g.low, 0.2, 1e-12);
    EXPECT_NEAR(g.high, 0.2, 1e-12);
    EXPECT_EQ(g.rounds, 3);
    EXPECT_TRUE(g.clearlyAbove(0.03));
    EXPECT_FALSE(g.withinNoise());
}

TEST(NoiseInterval, OneRoundHasNoIntervalAndBadValuesAreLeftOut) {
    const auto one = ts::pairedGain({100}, {150});
    EXPECT_NEAR(one.gain, 0.5, 1e-12);
    EXPECT_FALSE(one.hasInterval());
    EXPECT_FALSE(one.clearlyAbove(0.0)) << "no interval, no claim";
    const auto cleaned = ts::pairedGain({100, 0, NAN, 100}, {110, 500, 500, 110});
    EXPECT_EQ(cleaned.rounds, 2);
    EXPECT_NEAR(cleaned.gain, 0.1, 1e-12);
    EXPECT_THROW(ts::pairedGain({1, 2}, {1, 2}, 1.5), std::invalid_argument);
}

TEST(NoiseInterval, IntervalWidensWithSpreadAndNarrowsWithRounds) {
    const auto noisy = ts::pairedGain({100, 100, 100}, {90, 110, 100});
    EXPECT_TRUE(noisy.withinNoise());
    EXPECT_LT(noisy.low, -0.1);
    EXPECT_GT(noisy.high, 0.1);
    const auto more = ts::pairedGain({100, 100, 100, 100, 100, 100}, {90, 110, 100, 90, 110, 100});
    EXPECT_GT(more.low, noisy.low);
    EXPECT_LT(more.high, noisy.high);
    EXPECT_EQ(ts::formatGain(ts::pairedGain({100, 100}, {110, 110})),
              "+10.0% (+10.0% \u2026 +10.0%)");
}

// The stated rate: over many seeds, a 90% interval from 3 to 6 rounds holds
// the true gain about 90% of the time (normal noise of 7% per run).
TEST(NoiseInterval, PairedIntervalCoversTheTrueGainAtItsStatedRate) {
    for (const int rounds : {3, 6}) {
        const double true_gain = 0.2;
        int covered = 0;
        const int trials = 2000;
        for (int seed = 0; seed < trials; ++seed) {
            Noise noise(uint64_t(seed) * 7919 + uint64_t(rounds));
            std::vector<double> a, b;
            for (int r = 0; r < rounds; ++r) {
                a.push_back(100 * std::exp(0.07 * noise.normal()));
                b.push_back(100 * (1 + true_gain) * std::exp(0.07 * noise.normal()));
            }
            const auto g = ts::pairedGain(a, b, 0.9);
            covered += g.low <= true_gain && true_gain <= g.high;
        }
        const double rate = double(covered) / trials;
        EXPECT_GT(rate, 0.87) << rounds << " rounds";
        EXPECT_LT(rate, 0.93) << rounds << " rounds";
    }
}

TEST(NoiseInterval, RepeatedLevelIsTheGeometricMeanWithAnInterval) {
    const auto l = ts::repeatedLevel({100, 121});
    EXPECT_NEAR(l.value, 110, 1e-9);
    EXPECT_LT(l.low, 100);
    EXPECT_GT(l.high, 121);
    EXPECT_EQ(l.samples, 2);
    EXPECT_FALSE(ts::repeatedLevel({100}).confidence > 0);
}

TEST(NoiseInterval, MedianIntervalOfStepsHoldsTheMedianAndIsDeterministic) {
    Noise noise(42);
    std::vector<double> steps;
    for (int i = 0; i < 200; ++i)
        steps.push_back(50 + 5 * noise.normal());
    const auto a = ts::medianInterval(steps, 0.9, 7);
    const auto b = ts::medianInterval(steps, 0.9, 7);
    EXPECT_EQ(a.low, b.low);
    EXPECT_EQ(a.high, b.high);
    EXPECT_LE(a.low, a.value);
    EXPECT_GE(a.high, a.value);
    EXPECT_LT(a.low, 50.5);
    EXPECT_GT(a.high, 49.5);
    EXPECT_LT(a.high - a.low, 3.0) << "200 steps pin a median of sd 5 to about +-1";
}

TEST(NoiseInterval, MedianRatioSeparatesARealShiftFromNoise) {
    Noise noise(3);
    std::vector<double> base, same, faster;
    for (int i = 0; i < 100; ++i) {
        base.push_back(100 + 5 * noise.normal());
        same.push_back(100 + 5 * noise.normal());
        faster.push_back(115 + 5 * noise.normal());
    }
    const auto null_gain = ts::medianRatioInterval(base, same);
    EXPECT_TRUE(null_gain.withinNoise()) << ts::formatGain(null_gain);
    const auto real = ts::medianRatioInterval(base, faster);
    EXPECT_TRUE(real.clearlyAbove(0.1)) << ts::formatGain(real);
    EXPECT_NEAR(real.gain, 0.15, 0.03);
}

} // namespace
