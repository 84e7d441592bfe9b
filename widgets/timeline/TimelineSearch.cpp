#include "timeline/TimelineSearch.h"

#include <algorithm>
#include <cctype>
#include <iterator>

#include "util/CpuAffinity.h"
#include "util/ThreadPool.h"

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
    runs_.clear();
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
    // The scan reads every core record (3.2 GB for 100 M events), so it runs
    // on all cores, each over one stretch of the store; a stretch's runs stay
    // runs of their own, so the stretches' results are simply appended.
    const EventStore& events = trace.events;
    const size_t n = events.size();
    const size_t workers = n < 1'000'000 ? 1 : std::clamp<size_t>(usableCores(), 1, 8);
    struct Part {
        std::vector<int32_t> ids;
        std::vector<size_t> run_begins;
    };
    std::vector<Part> parts(workers);
    auto scan = [&](size_t w) {
        Part& part = parts[w];
        int32_t lane = -1;
        for (size_t i = n * w / workers, end = n * (w + 1) / workers; i < end; ++i) {
            const EventCore& e = events.core(i);
            if (e.name >= name_matches_.size() || !name_matches_[e.name]) continue;
            if (part.ids.empty() || e.lane != lane) part.run_begins.push_back(part.ids.size());
            lane = e.lane;
            part.ids.push_back(int32_t(i));
        }
    };
    // On the core's pool: an exception (bad_alloc on a huge match list)
    // reaches the caller, and every stretch ends before `parts` goes away.
    parallelFor(workers, unsigned(workers), scan);
    size_t total = 0;
    for (const Part& part : parts)
        total += part.ids.size();
    matches_.reserve(total);
    for (const Part& part : parts) {
        for (size_t b = 0; b < part.run_begins.size(); ++b) {
            const size_t end =
                b + 1 < part.run_begins.size() ? part.run_begins[b + 1] : part.ids.size();
            runs_.push_back({matches_.size() + part.run_begins[b], matches_.size() + end});
        }
        matches_.insert(matches_.end(), part.ids.begin(), part.ids.end());
    }
    return matches_.size();
}

size_t TimelineSearch::firstFrom(const Trace& trace, const Run& run, double t,
                                 bool inclusive) const {
    const auto first = matches_.begin() + ptrdiff_t(run.begin);
    const auto last = matches_.begin() + ptrdiff_t(run.end);
    auto start = [&](int32_t id) { return double(trace.events.core(size_t(id)).start_ns); };
    const auto it =
        inclusive
            ? std::lower_bound(first, last, t, [&](int32_t id, double v) { return start(id) < v; })
            : std::upper_bound(first, last, t, [&](double v, int32_t id) { return v < start(id); });
    return size_t(it - matches_.begin());
}

// Among the runs, the earliest candidate wins, and of equal starts the one in
// the earlier run (the store's order), as in one time-ordered list.
int32_t TimelineSearch::next(const Trace& trace, double after_ns) const {
    if (matches_.empty()) return -1;
    auto start = [&](size_t i) { return trace.events.core(size_t(matches_[i])).start_ns; };
    size_t best = matches_.size();
    auto consider = [&](size_t i) {
        if (best == matches_.size() || start(i) < start(best)) best = i;
    };
    for (const Run& run : runs_) {
        const size_t i = firstFrom(trace, run, after_ns, false);
        if (i < run.end) consider(i);
    }
    if (best == matches_.size()) // none after: wrap to the first match
        for (const Run& run : runs_)
            consider(run.begin);
    return matches_[best];
}

// The latest candidate wins, and of equal starts the one in the later run.
int32_t TimelineSearch::previous(const Trace& trace, double before_ns) const {
    if (matches_.empty()) return -1;
    auto start = [&](size_t i) { return trace.events.core(size_t(matches_[i])).start_ns; };
    size_t best = matches_.size();
    auto consider = [&](size_t i) {
        if (best == matches_.size() || start(i) >= start(best)) best = i;
    };
    for (const Run& run : runs_) {
        const size_t i = firstFrom(trace, run, before_ns, true);
        if (i > run.begin) consider(i - 1);
    }
    if (best == matches_.size()) // none before: wrap to the last match
        for (const Run& run : runs_)
            consider(run.end - 1);
    return matches_[best];
}

int64_t TimelineSearch::indexOf(const Trace& trace, int32_t event) const {
    if (event < 0 || size_t(event) >= trace.events.size()) return -1;
    const double t = double(trace.events.core(size_t(event)).start_ns);
    auto start = [&](size_t i) { return double(trace.events.core(size_t(matches_[i])).start_ns); };
    // Its run and place: among the run's matches of the same start.
    size_t own = runs_.size(), place = 0;
    for (size_t r = 0; r < runs_.size() && own == runs_.size(); ++r)
        for (size_t i = firstFrom(trace, runs_[r], t, true); i < runs_[r].end && start(i) == t; ++i)
            if (matches_[i] == event) {
                own = r;
                place = i;
                break;
            }
    if (own == runs_.size()) return -1;
    // Before it in time order: its run's earlier matches, the earlier runs'
    // matches up to its start, the later runs' matches before it.
    auto rank = int64_t(place - runs_[own].begin);
    for (size_t r = 0; r < runs_.size(); ++r)
        if (r != own) rank += int64_t(firstFrom(trace, runs_[r], t, r > own) - runs_[r].begin);
    return rank;
}

} // namespace ts::gui
