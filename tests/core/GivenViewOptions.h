#pragma once
// Tests give trace-stats' view options as the command line does: by name,
// as typed (TraceStatsOptions::view_options).
#include <algorithm>
#include <string>

#include "inspect/TraceStatsCommand.h"

namespace ts::test {

// Gives `name` the value `text` in place of any it had; "" takes it back.
inline void setViewOption(TraceStatsOptions& options, const std::string& name,
                          const std::string& text) {
    std::vector<views::GivenOption>& given = options.view_options;
    given.erase(std::remove_if(given.begin(), given.end(),
                               [&name](const views::GivenOption& g) { return g.name == name; }),
                given.end());
    if (!text.empty()) given.push_back({name, text});
}

} // namespace ts::test
