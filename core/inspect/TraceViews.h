#pragma once
// `trace-stats --view NAME`: the printers of the views the CLI offers, one per
// entry of the view catalog (report/ViewCatalog.h) shown on the CLI. The
// command, its help and its errors find a view here by name; adding one is a
// catalog entry and a line in TraceViews.cpp.
#include <ostream>
#include <string>
#include <vector>

#include "inspect/TraceInput.h"
#include "inspect/TraceStatsCommand.h"
#include "report/ViewCatalog.h"

namespace ts {

// What a printer is given: the command's options, the view's own options
// checked against its declarations (values.whole("--step")), the trace read
// (null for the views of a rank folder, which read their files themselves)
// and where to print. A printer throws std::invalid_argument for input it
// cannot show.
struct TraceViewRequest {
    const TraceStatsOptions& options;
    const views::OptionValues& values;
    TraceInput* input;
    std::ostream& out;
    std::ostream& err; // the progress line of a rank folder's read
};

struct CliView {
    const views::ViewInfo* info;
    void (*print)(TraceViewRequest& request);
};

// In the catalog's order.
const std::vector<CliView>& cliViews();
// The view named `name`; throws std::invalid_argument naming --view and the
// views there are when there is none.
const CliView& cliView(const std::string& name);
// --view's help: the names, each with what it shows and the options it takes.
std::string cliViewHelp();
// `trace-stats --view NAME --help`: what the view shows and each of its
// options with its value, range and default.
std::string cliViewOptionsHelp(const CliView& view);
// The help of the options named `name` on trace-stats: for each declaration,
// what takes it, what it does, its value and default.
std::string cliOptionHelp(const std::string& name);
// The view options given to `trace-stats` (to --view options.view, else to
// the operator table), checked; throws std::invalid_argument naming an
// option that is not taken or a bad value.
views::OptionValues readViewOptions(const TraceStatsOptions& options);

} // namespace ts
