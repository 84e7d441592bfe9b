#pragma once
// Every analysis view Trainscope has, described once: its name (the CLI's
// `trace-stats --view NAME` and the GUI's `--view NAME`), its title, the group
// the GUI files it under, what it needs as input and where it is shown. The
// CLI's printers (inspect/TraceViews.h) and the GUI's pages
// (widgets/shell/ViewRegistry.h) attach to these entries by name; their help,
// errors, tabs and settings all read this list. docs/architecture.md "How to
// add a view" walks through adding one.
#include <string>
#include <string_view>
#include <vector>

#include "report/ViewOptions.h"

namespace ts::views {

// How the GUI groups its views, in the order of its top row.
enum class Group { Summary, Time, Gpu, Memory, Ranks, Compare, Experiments };
const char* groupTitle(Group group); // "Summary", "Time", "GPU", ...

// What a view reads.
enum class Input {
    Trace,          // one trace (a file, or the trace of a run)
    TraceOrRun,     // one trace, or a run's records when it has no trace
    RankFolder,     // a folder of per-rank traces, or a data-parallel run
    TraceOrRanks,   // one trace, or each rank's of a folder (a figure per rank)
    TwoDocuments,   // two traces or runs, compared
    Run,            // a run directory or a run in progress
    RunsFolder,     // the runs folder (history) or an experiment's directory
    Snapshot,       // a PyTorch allocator snapshot (pickle)
    MemoryTimeline, // torch.profiler's export_memory_timeline raw rows
};

// "a trace", "a run", ... for messages.
const char* inputTitle(Input input);

// Where a view is offered.
enum Surface : unsigned { Cli = 1u, Gui = 2u };

struct ViewInfo {
    const char* name;  // "kernels": lower case, no spaces
    const char* title; // "Kernels"
    Group group;
    Input input;
    unsigned surfaces;   // Cli | Gui
    const char* summary; // one line for help texts
    // The options it takes beyond every view's (--format, --limit, ...);
    // one declared for several views is the same object in each.
    std::vector<const OptionInfo*> options = {};
};

// In the order the CLI lists them and the GUI shows them within a group.
const std::vector<ViewInfo>& catalog();
// The entry named `name` (case-insensitive); null when there is none.
const ViewInfo* findView(std::string_view name);
// The names of the views offered on `surface`, quoted and joined for a
// message: "'overview', 'operators', ... or 'distributed'".
std::string quotedNames(Surface surface);
// The CLI's views that read a folder of per-rank traces, likewise.
std::string quotedRankFolderNames();

// The options of `trace-stats` without --view (the operator table).
const std::vector<const OptionInfo*>& operatorTableOptions();
// --step, --annotation and --instance: the window of critical-path and area,
// which trace-export takes too.
const std::vector<const OptionInfo*>& windowOptions();
// Every option the CLI's views take, in the catalog's order, then the
// operator table's; two declarations may share a name (--group-by: --view
// operators' choices and the operator table's fewer).
std::vector<const OptionInfo*> cliOptions();
// What takes the declaration `option`, or any option named `name`, on the
// CLI: "--view area and critical-path", "the operator table (no --view)";
// "" nothing.
std::string cliTakersOf(const OptionInfo& option);
std::string cliTakersOf(std::string_view name);

} // namespace ts::views
