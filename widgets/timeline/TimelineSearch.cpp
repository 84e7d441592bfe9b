#include "timeline/TimelineSearch.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace ts::gui {
namespace {

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

} // namespace

void TimelineSearch::clear() {
    query_.clear();
    name_matches_.clear();
    matches_.clear();
}

size_t TimelineSearch::run(const Trace& trace, const std::string& query) {
    clear();
    query_ = lower(query);
    if (query_.empty()) return 0;
    // Names are few (thousands), events many: match names once, then events
    // by their name index in the 32-byte core records.
    name_matches_.assign(trace.names.size(), 0);
    for (size_t i = 0; i < trace.names.size(); ++i)
        name_matches_[i] = lower(trace.names[i]).find(query_) != std::string::npos;
    const EventStore& events = trace.events;
    std::vector<size_t> lane_runs{0}; // where each lane's matches begin in matches_
    for (size_t i = 0; i < events.size(); ++i) {
        const EventCore& e = events.core(i);
        if (e.name >= name_matches_.size() || !name_matches_[e.name]) continue;
        if (!matches_.empty() && events.core(size_t(matches_.back())).lane != e.lane)
            lane_runs.push_back(matches_.size());
        matches_.push_back(int32_t(i));
    }
    lane_runs.push_back(matches_.size());
    mergeByStart(trace, lane_runs);
    return matches_.size();
}

// The store keeps events by (lane, start), so each lane's matches are in
// time order already: merging the lanes' runs pairwise costs log2(lanes)
// linear passes, where sorting 100 M matches would cost seconds. Ties keep
// the store's order (lane first), as the stable sort did.
void TimelineSearch::mergeByStart(const Trace& trace, std::vector<size_t> runs) {
    auto earlier = [&](int32_t a, int32_t b) {
        return trace.events.core(size_t(a)).start_ns < trace.events.core(size_t(b)).start_ns;
    };
    std::vector<int32_t> merged(matches_.size());
    while (runs.size() > 2) {
        std::vector<size_t> next{0};
        for (size_t r = 0; r + 1 < runs.size(); r += 2) {
            const size_t begin = runs[r], mid = runs[r + 1];
            const size_t end = r + 2 < runs.size() ? runs[r + 2] : mid;
            std::merge(matches_.begin() + long(begin), matches_.begin() + long(mid),
                       matches_.begin() + long(mid), matches_.begin() + long(end),
                       merged.begin() + long(begin), earlier);
            next.push_back(end);
        }
        matches_.swap(merged);
        runs.swap(next);
    }
}

int32_t TimelineSearch::next(const Trace& trace, double after_ns) const {
    if (matches_.empty()) return -1;
    const auto it =
        std::upper_bound(matches_.begin(), matches_.end(), after_ns, [&](double t, int32_t id) {
            return t < double(trace.events.core(size_t(id)).start_ns);
        });
    return it == matches_.end() ? matches_.front() : *it;
}

int32_t TimelineSearch::previous(const Trace& trace, double before_ns) const {
    if (matches_.empty()) return -1;
    const auto it =
        std::lower_bound(matches_.begin(), matches_.end(), before_ns, [&](int32_t id, double t) {
            return double(trace.events.core(size_t(id)).start_ns) < t;
        });
    return it == matches_.begin() ? matches_.back() : *std::prev(it);
}

int TimelineSearch::indexOf(const Trace& trace, int32_t event) const {
    if (event < 0) return -1;
    const double t = double(trace.events.core(size_t(event)).start_ns);
    auto it = std::lower_bound(matches_.begin(), matches_.end(), t, [&](int32_t id, double v) {
        return double(trace.events.core(size_t(id)).start_ns) < v;
    });
    for (; it != matches_.end() && double(trace.events.core(size_t(*it)).start_ns) == t; ++it)
        if (*it == event) return int(it - matches_.begin());
    return -1;
}

} // namespace ts::gui
