#include "analysis/RankSpreads.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace ts {

int64_t medianOf(std::vector<int64_t> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

SortedValues::SortedValues(std::vector<int64_t> values) : sorted_(std::move(values)) {
    std::sort(sorted_.begin(), sorted_.end());
}

int64_t SortedValues::medianWithout(int64_t value) const {
    const size_t n = sorted_.size();
    if (n < 2) return 0;
    const size_t gone =
        size_t(std::lower_bound(sorted_.begin(), sorted_.end(), value) - sorted_.begin());
    // The k-th of the n - 1 values left.
    auto at = [&](size_t k) { return sorted_[k < gone ? k : k + 1]; };
    const size_t m = n - 1;
    return m % 2 ? at(m / 2) : (at(m / 2 - 1) + at(m / 2)) / 2;
}

std::string durationText(int64_t ns) {
    char buf[48];
    const double us = double(ns) / 1000;
    if (std::fabs(us) >= 1e6)
        std::snprintf(buf, sizeof buf, "%.2f s", us / 1e6);
    else if (std::fabs(us) >= 1000)
        std::snprintf(buf, sizeof buf, "%.2f ms", us / 1000);
    else if (ns % 1000 == 0)
        std::snprintf(buf, sizeof buf, "%lld us", static_cast<long long>(ns / 1000));
    else
        std::snprintf(buf, sizeof buf, "%.1f us", us);
    return buf;
}

std::string rankListText(const std::vector<int64_t>& ranks, size_t runs) {
    std::string out;
    size_t shown = 0, i = 0;
    for (; i < ranks.size() && shown < runs; ++shown) {
        size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        out += (out.empty() ? "" : ", ") + std::to_string(ranks[i]);
        if (j > i) out += "-" + std::to_string(ranks[j]);
        i = j + 1;
    }
    if (i < ranks.size()) out += " and " + std::to_string(ranks.size() - i) + " more";
    return out;
}

namespace {

// The range of a call compared across ranks: its last (the kernel, on a
// GPU; the call itself on the CPU), among those every rank has.
const TimeRange* comparedRange(const RankTraceSummary& r, uint32_t call, size_t common) {
    const RangeList& ranges = r.collectives[call].ranges;
    return common == 0 ? nullptr : &ranges[common - 1];
}

std::string arrivalVerdict(const DistributedView& view) {
    const auto worst = std::max_element(
        view.ranks.begin(), view.ranks.end(),
        [](const RankView& a, const RankView& b) { return a.caused_wait_ns < b.caused_wait_ns; });
    if (worst == view.ranks.end() || view.arrivals.calls == 0) return "";
    const size_t steps = std::max<size_t>(1, worst->steps.size());
    // Ranks as late as the worst (a group of ranks, a node): said with it.
    size_t alike = 0;
    for (const RankView& r : view.ranks)
        alike += &r != &*worst && r.last_arrivals == worst->last_arrivals &&
                         std::llabs(r.caused_wait_ns - worst->caused_wait_ns) <=
                             worst->caused_wait_ns / 1000
                     ? 1
                     : 0;
    const std::string who = "rank " + std::to_string(worst->rank) +
                            (alike ? " (and " + std::to_string(alike) + " ranks alike)" : "");
    return who + " arrives last at " + std::to_string(worst->last_arrivals) + " of " +
           std::to_string(view.arrivals.calls) + " collectives: the others wait for it " +
           durationText(worst->caused_wait_ns / int64_t(steps)) + " per step (" +
           durationText(worst->caused_wait_ns) + " in all); first to last arrival: median " +
           durationText(view.arrivals.median_ns) + ", p95 " + durationText(view.arrivals.p95_ns) +
           ", max " + durationText(view.arrivals.max_ns);
}

int64_t percentile95(std::vector<int64_t>& sorted) {
    if (sorted.empty()) return 0;
    const size_t k = size_t(std::ceil(0.95 * double(sorted.size())));
    return sorted[std::max<size_t>(k, 1) - 1];
}

} // namespace

void measureArrivals(DistributedView& view, const std::vector<const RankTraceSummary*>& ranks,
                     const std::vector<std::vector<uint32_t>>& match) {
    const size_t n = ranks.size();
    if (n < 2) return;
    std::vector<int64_t> spreads, durations(n);
    // Clock offsets from at most 129 calls spread over the span.
    const size_t stride = std::max<size_t>(1, match.size() / 128);
    std::vector<std::vector<int64_t>> gaps(n);
    for (size_t m = 0; m < match.size(); ++m) {
        size_t common = SIZE_MAX;
        for (size_t r = 0; r < n; ++r)
            common = std::min(common, ranks[r]->collectives[match[m][r]].ranges.size());
        if (common == 0 || common == SIZE_MAX) continue;
        const TimeRange* first = comparedRange(*ranks[0], match[m][0], common);
        size_t last = 0;
        for (size_t r = 0; r < n; ++r) {
            const TimeRange* t = comparedRange(*ranks[r], match[m][r], common);
            durations[r] = t->second - t->first;
            if (durations[r] < durations[last]) last = r;
            if (m % stride == 0)
                gaps[r].push_back(t->second + ranks[r]->origin_ns - first->second -
                                  ranks[0]->origin_ns);
        }
        int64_t waits = 0, spread = 0;
        size_t tied = 0; // ranks that arrived last together (within a microsecond)
        for (size_t r = 0; r < n; ++r) {
            const int64_t wait = durations[r] - durations[last];
            view.ranks[r].waited_ns += wait;
            waits += wait;
            spread = std::max(spread, wait);
            tied += wait <= kSameArrivalNs ? 1 : 0;
        }
        // The others' mean wait, shared among the ranks that were last together.
        const int64_t caused = waits / int64_t(n - 1) / int64_t(tied);
        for (size_t r = 0; r < n; ++r)
            if (durations[r] - durations[last] <= kSameArrivalNs) {
                ++view.ranks[r].last_arrivals;
                view.ranks[r].caused_wait_ns += caused;
            }
        spreads.push_back(spread);
    }
    for (size_t r = 0; r < n; ++r)
        view.ranks[r].clock_offset_ns = medianOf(std::move(gaps[r]));
    std::sort(spreads.begin(), spreads.end());
    view.arrivals.calls = spreads.size();
    view.arrivals.median_ns = medianOf(spreads);
    view.arrivals.p95_ns = percentile95(spreads);
    view.arrivals.max_ns = spreads.empty() ? 0 : spreads.back();
    view.arrivals.verdict = arrivalVerdict(view);
}

namespace {

// "The ranks disagree on the world size: 8 (ranks 0-7), 16 (ranks 8-23)".
template <typename Key, typename Get>
void disagreement(DistributedView& view, const std::string& what, Get get) {
    std::map<Key, std::vector<int64_t>> by;
    for (const RankView& r : view.ranks)
        if (const Key k = get(r); k != Key()) by[k].push_back(r.rank);
    if (by.size() < 2) return;
    std::string text;
    for (const auto& [key, ranks] : by) {
        std::string shown;
        if constexpr (std::is_same_v<Key, std::string>)
            shown = key;
        else
            shown = std::to_string(key);
        text += (text.empty() ? "" : ", ") + shown + " (rank" + (ranks.size() > 1 ? "s " : " ") +
                rankListText(ranks) + ")";
    }
    view.notes.push_back("The ranks disagree on the " + what + ": " + text +
                         ". Are these traces of different jobs?");
}

void missingRanks(DistributedView& view) {
    const int64_t world = view.ranks.front().world_size;
    constexpr int64_t kLargestWorld = int64_t(1) << 24; // beyond, a world size is no count
    for (const RankView& r : view.ranks)
        if (r.world_size != world || world <= 0 || world > kLargestWorld) return;
    std::vector<int64_t> missing, beyond;
    size_t next = 0;
    for (int64_t rank = 0; rank < world; ++rank) {
        while (next < view.ranks.size() && view.ranks[next].rank < rank)
            ++next;
        if (next >= view.ranks.size() || view.ranks[next].rank != rank) missing.push_back(rank);
    }
    for (const RankView& r : view.ranks)
        if (r.rank >= world) beyond.push_back(r.rank);
    if (!missing.empty())
        view.notes.push_back(std::to_string(view.ranks.size() - beyond.size()) + " of the job's " +
                             std::to_string(world) +
                             " ranks are here; missing: " + rankListText(missing) + ".");
    if (!beyond.empty())
        view.notes.push_back("Rank(s) " + rankListText(beyond) + " lie beyond the world size " +
                             std::to_string(world) + ".");
}

void clockNotes(DistributedView& view) {
    std::vector<std::string> off;
    for (const RankView& r : view.ranks)
        if (std::llabs(r.clock_offset_ns) > kClockDisagreementNs)
            off.push_back("rank " + std::to_string(r.rank) + " by " +
                          durationText(r.clock_offset_ns));
    if (off.empty()) return;
    std::string list;
    for (size_t i = 0; i < off.size() && i < 8; ++i)
        list += (list.empty() ? "" : ", ") + off[i];
    if (off.size() > 8) list += " and " + std::to_string(off.size() - 8) + " more";
    view.notes.push_back(
        "Clocks disagree with rank " + std::to_string(view.ranks.front().rank) + "'s: " + list +
        " (the median gap between the ends of the same collectives, which end together on "
        "every rank). The view compares durations within each rank, so its figures stand; "
        "times compared across ranks (the timeline) are off by as much.");
}

} // namespace

void addIdentityNotes(DistributedView& view) {
    if (view.ranks.empty()) return;
    disagreement<int64_t>(view, "world size", [](const RankView& r) {
        return r.world_size > 0 ? r.world_size : int64_t(0);
    });
    disagreement<std::string>(view, "backend", [](const RankView& r) { return r.backend; });
    missingRanks(view);
    std::vector<int64_t> stepless;
    for (const RankView& r : view.ranks)
        if (r.steps.empty()) stepless.push_back(r.rank);
    if (!stepless.empty())
        view.notes.push_back("Rank(s) " + rankListText(stepless) +
                             " have no steps: they count in the collectives, not in the "
                             "distributions.");
    clockNotes(view);
}

const std::vector<StepMetric>& stepMetrics() {
    static const std::vector<StepMetric> metrics = {
        {"step", "Step time", [](const DistributedStep& s) { return s.total_ns; }},
        {"computation", "Computation",
         [](const DistributedStep& s) { return s.computationWithOverlapNs(); }},
        {"communication", "Communication",
         [](const DistributedStep& s) { return s.communication_ns + s.overlapping_ns; }},
        {"synchronizing", "Waiting in collectives",
         [](const DistributedStep& s) { return s.synchronizing_ns; }},
        {"idle", "Idle (neither)", [](const DistributedStep& s) { return s.other_ns; }},
        {"data_loading", "Data loading",
         [](const DistributedStep& s) { return s.data_loading_ns; }},
    };
    return metrics;
}

void measureSpreads(DistributedView& view) {
    constexpr size_t kTail = 3;
    for (const StepMetric& metric : stepMetrics()) {
        std::vector<std::pair<int64_t, int64_t>> values; // (value, rank)
        for (const RankView& r : view.ranks)
            if (!r.steps.empty()) values.emplace_back(metric.value(r.average), r.rank);
        MetricSpread s;
        s.key = metric.key;
        s.label = metric.label;
        s.ranks = values.size();
        if (values.empty()) {
            view.spreads.push_back(std::move(s));
            continue;
        }
        std::sort(values.begin(), values.end());
        std::vector<int64_t> sorted;
        for (const auto& v : values)
            sorted.push_back(v.first);
        s.min_ns = sorted.front();
        s.max_ns = sorted.back();
        s.median_ns = medianOf(sorted);
        s.p95_ns = percentile95(sorted);
        for (size_t i = 0; i < kTail && i < values.size(); ++i) {
            s.lowest.push_back(values[i].second);
            s.highest.push_back(values[values.size() - 1 - i].second);
        }
        view.spreads.push_back(std::move(s));
    }
}

} // namespace ts
