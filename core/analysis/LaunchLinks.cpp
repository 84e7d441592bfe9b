#include "analysis/LaunchLinks.h"

#include <algorithm>
#include <cstdint>

#include "util/CountingSort.h"

namespace ts {

LaunchLinks::LaunchLinks(const LaunchLinks& other)
    : runtimes(other.runtimes), stale(other.stale), positions_(other.positions_),
      stale_positions_(other.stale_positions_) {
    rebase(other);
}

LaunchLinks& LaunchLinks::operator=(const LaunchLinks& other) {
    if (this == &other) return *this;
    runtimes = other.runtimes;
    stale = other.stale;
    positions_ = other.positions_;
    stale_positions_ = other.stale_positions_;
    rebase(other);
    return *this;
}

void LaunchLinks::rebase(const LaunchLinks& from) {
    for (RuntimeCall& call : runtimes)
        if (!call.device.empty())
            call.device =
                DevicePositions(positions_.data() + (call.device.begin() - from.positions_.data()),
                                call.device.size());
    stale.device = DevicePositions(stale_positions_.data(), stale_positions_.size());
}

namespace {

// A device event or a runtime call with a correlation, at its position in
// the time-ordered KinetoEvents list.
struct Correlated {
    int64_t correlation;
    int32_t position;
    int32_t runtime; // LaunchLinks::runtimes index; -1: device work
};

// By correlation, then position: `items` come in position order, so a
// stable sort by correlation is that order. CUPTI numbers correlations one
// after another, so their range is usually near their count.
void sortByCorrelation(std::vector<Correlated>& items) {
    if (items.empty()) return;
    const auto [lo, hi] = std::minmax_element(
        items.begin(), items.end(),
        [](const Correlated& a, const Correlated& b) { return a.correlation < b.correlation; });
    const uint64_t span = uint64_t(hi->correlation) - uint64_t(lo->correlation) + 1;
    if (denseEnoughToCount(span, items.size())) {
        const int64_t first = lo->correlation;
        countingSortBy(items, size_t(span),
                       [first](const Correlated& c) { return size_t(c.correlation - first); });
        return;
    }
    std::sort(items.begin(), items.end(), [](const Correlated& a, const Correlated& b) {
        return a.correlation != b.correlation ? a.correlation < b.correlation
                                              : a.position < b.position;
    });
}

} // namespace

// The plugin's rule, as it reads the events in time order: device work
// belongs to the latest runtime call with its correlation seen before it,
// and work that comes before any such call goes to the first one that
// comes. Grouped by correlation with a sort instead of hash maps of lists
// (one allocation per call and per id on a GPU trace).
LaunchLinks linkLaunches(const Trace& trace, const KinetoEvents& k) {
    LaunchLinks links;
    std::vector<Correlated> items;
    std::vector<int32_t> stale;
    size_t calls = 0;
    for (const KinetoEvent& e : k.events)
        calls += e.type == PluginType::Runtime ? 1 : 0;
    links.runtimes.reserve(calls);
    for (size_t i = 0; i < k.events.size(); ++i) {
        const KinetoEvent& e = k.events[i];
        const auto position = static_cast<int32_t>(i);
        if (isDeviceType(e.type)) {
            const int64_t correlation = kinetoIds(trace, e).correlation;
            if (correlation >= 0)
                items.push_back(Correlated{correlation, position, -1});
            else if (e.type == PluginType::Kernel)
                stale.push_back(position);
        } else if (e.type == PluginType::Runtime) {
            const EventIds ids = kinetoIds(trace, e);
            const auto runtime = static_cast<int32_t>(links.runtimes.size());
            links.runtimes.push_back(RuntimeCall{e.event, e.start, e.end, ids.external_id, -1, {}});
            if (ids.correlation >= 0)
                items.push_back(Correlated{ids.correlation, position, runtime});
        }
    }
    sortByCorrelation(items);
    // (call, position) pairs in each call's order of arrival.
    std::vector<std::pair<int32_t, int32_t>> owned;
    owned.reserve(items.size());
    for (size_t g = 0; g < items.size();) {
        size_t end = g;
        while (end < items.size() && items[end].correlation == items[g].correlation)
            ++end;
        int32_t current = -1;
        size_t waiting = g; // device work before the first call: items[waiting, first call)
        for (size_t i = g; i < end; ++i) {
            const Correlated& c = items[i];
            if (c.runtime < 0) {
                if (current >= 0) owned.emplace_back(current, c.position);
                continue;
            }
            if (current < 0)
                for (size_t w = waiting; w < i; ++w)
                    owned.emplace_back(c.runtime, items[w].position);
            current = c.runtime;
        }
        if (current < 0) // no call: only stale kernels are kept (memcpy/memset dropped)
            for (size_t w = g; w < end; ++w)
                if (k.events[size_t(items[w].position)].type == PluginType::Kernel)
                    stale.push_back(items[w].position);
        g = end;
    }
    items = {};
    // By call, keeping each call's order of arrival (calls are 0 .. runtimes).
    countingSortBy(owned, links.runtimes.size(),
                   [](const std::pair<int32_t, int32_t>& p) { return size_t(p.first); });
    auto byStartLongestFirst = [&](int32_t a, int32_t b) {
        const KinetoEvent& x = k.events[size_t(a)];
        const KinetoEvent& y = k.events[size_t(b)];
        if (x.start != y.start) return x.start < y.start;
        return x.end > y.end;
    };
    links.positions_.resize(owned.size());
    for (size_t i = 0; i < owned.size(); ++i)
        links.positions_[i] = owned[i].second;
    for (size_t i = 0; i < owned.size();) {
        size_t end = i;
        while (end < owned.size() && owned[end].first == owned[i].first)
            ++end;
        int32_t* first = links.positions_.data() + i;
        std::stable_sort(first, first + (end - i), byStartLongestFirst);
        links.runtimes[size_t(owned[i].first)].device = DevicePositions(first, end - i);
        i = end;
    }
    std::sort(stale.begin(), stale.end());
    std::stable_sort(stale.begin(), stale.end(), byStartLongestFirst);
    links.stale_positions_ = std::move(stale);
    links.stale.device =
        DevicePositions(links.stale_positions_.data(), links.stale_positions_.size());
    return links;
}

} // namespace ts
