#pragma once
// Finds trace events by (case-insensitive) name substring and steps through
// them in time order.
#include <cstdint>
#include <string>
#include <vector>

#include "trace/Trace.h"

namespace ts::gui {

class TimelineSearch {
public:
    // Returns the number of matching events.
    size_t run(const Trace& trace, const std::string& query);
    void clear();

    bool active() const { return !query_.empty(); }
    const std::vector<uint8_t>& nameMatches() const { return name_matches_; }
    const std::vector<int32_t>& matches() const { return matches_; } // by start time
    // The first match starting after `after_ns` (wraps around); -1 when none.
    int32_t next(const Trace& trace, double after_ns) const;
    // The last match starting before `before_ns` (wraps around); -1 when none.
    int32_t previous(const Trace& trace, double before_ns) const;
    // Position of `event` in matches(), -1 when not a match.
    int indexOf(const Trace& trace, int32_t event) const;

private:
    // Sorts matches_ (runs of one lane each, begins in `runs`, then the end)
    // by start time.
    void mergeByStart(const Trace& trace, std::vector<size_t> runs);

    std::string query_;
    std::vector<uint8_t> name_matches_;
    std::vector<int32_t> matches_;
};

} // namespace ts::gui
