#pragma once
// What the Distributed view says across many ranks, where a row per rank no
// longer reads (1,024 ranks): each metric's distribution with the ranks at
// its tails, the collectives' arrival spread with who arrives last and how
// long the others wait for it, and the ranks that do not fit the job (other
// world sizes or backends, missing ranks, clocks that disagree).
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/DistributedView.h"
#include "analysis/RankTraceSummary.h"

namespace ts {

// The median as the view takes it: the middle value, or the mean of the two
// middle ones (0 for none).
int64_t medianOf(std::vector<int64_t> values);

// One sorted copy of n values, answering "the median of the other n - 1"
// for each of them in O(log n).
class SortedValues {
public:
    explicit SortedValues(std::vector<int64_t> values);
    int64_t medianWithout(int64_t value) const;

private:
    std::vector<int64_t> sorted_;
};

// "56 us", "12.5 us", "2.14 ms".
std::string durationText(int64_t ns);
// "0-3, 7, 9-12" for sorted ranks; at most `runs` runs, then "and N more".
std::string rankListText(const std::vector<int64_t>& ranks, size_t runs = 8);

// A per-step metric of a rank: the spreads' rows and the GUI's heat map.
struct StepMetric {
    const char* key;   // "step", "computation", ...
    const char* label; // "Step time"
    int64_t (*value)(const DistributedStep& step);
};
// Step time, computation, communication, waiting in collectives, idle,
// data loading.
const std::vector<StepMetric>& stepMetrics();

// Per call matched on every rank (`match`: per call, per rank in view
// order, its collective), who arrived last (the rank whose call took the
// least: they all end together) and how long each other rank waited: fills
// each RankView's waited_ns, last_arrivals, caused_wait_ns and
// clock_offset_ns, and view.arrivals.
void measureArrivals(DistributedView& view, const std::vector<const RankTraceSummary*>& ranks,
                     const std::vector<std::vector<uint32_t>>& match);
// Notes naming ranks with another world size or backend, missing ranks,
// ranks without steps and clocks that disagree (after measureArrivals).
void addIdentityNotes(DistributedView& view);
// view.spreads, over the ranks that have steps.
void measureSpreads(DistributedView& view);

// Ranks whose calls took within this of the shortest arrived last together.
inline constexpr int64_t kSameArrivalNs = 1'000;
// Clocks further apart than this are named (NTP keeps nodes well within).
inline constexpr int64_t kClockDisagreementNs = 1'000'000;

} // namespace ts
