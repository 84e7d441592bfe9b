#include "timeline/TimelineSearch.h"

#include <algorithm>
#include <cctype>

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
    // Names are few (hundreds), events many: match names once, then events by id.
    name_matches_.assign(trace.names.size(), 0);
    for (size_t i = 0; i < trace.names.size(); ++i)
        name_matches_[i] = lower(trace.names[i]).find(query_) != std::string::npos;
    for (size_t i = 0; i < trace.events.size(); ++i)
        if (trace.events[i].name < name_matches_.size() && name_matches_[trace.events[i].name])
            matches_.push_back(int32_t(i));
    std::stable_sort(matches_.begin(), matches_.end(), [&](int32_t a, int32_t b) {
        return trace.events[size_t(a)].start_ns < trace.events[size_t(b)].start_ns;
    });
    return matches_.size();
}

int32_t TimelineSearch::next(const Trace& trace, double after_ns) const {
    if (matches_.empty()) return -1;
    const auto it =
        std::upper_bound(matches_.begin(), matches_.end(), after_ns, [&](double t, int32_t id) {
            return t < double(trace.events[size_t(id)].start_ns);
        });
    return it == matches_.end() ? matches_.front() : *it;
}

int32_t TimelineSearch::previous(const Trace& trace, double before_ns) const {
    if (matches_.empty()) return -1;
    const auto it =
        std::lower_bound(matches_.begin(), matches_.end(), before_ns, [&](int32_t id, double t) {
            return double(trace.events[size_t(id)].start_ns) < t;
        });
    return it == matches_.begin() ? matches_.back() : *std::prev(it);
}

int TimelineSearch::indexOf(const Trace& trace, int32_t event) const {
    if (event < 0) return -1;
    const double t = double(trace.events[size_t(event)].start_ns);
    auto it = std::lower_bound(matches_.begin(), matches_.end(), t, [&](int32_t id, double v) {
        return double(trace.events[size_t(id)].start_ns) < v;
    });
    for (; it != matches_.end() && double(trace.events[size_t(*it)].start_ns) == t; ++it)
        if (*it == event) return int(it - matches_.begin());
    return -1;
}

} // namespace ts::gui
