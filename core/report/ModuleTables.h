#pragma once
// The Modules view's tables, described once (report/TableSpec.h): the
// module tree's columns (`trace-stats --view modules` prints the tree
// flattened, the GUI's ModuleTreeModel shows it as a tree with the same
// columns) and the calls of one module (the GUI's table under the tree).
// Times are microseconds.
#include <vector>

#include "analysis/ModuleView.h"
#include "report/TableSpec.h"

namespace ts {

namespace module_column {
inline constexpr const char* kName = "name";
inline constexpr const char* kCalls = "occurrences";
inline constexpr const char* kOperators = "operators";
inline constexpr const char* kHostTotalUs = "host_total_us";
inline constexpr const char* kHostSelfUs = "host_self_us";
inline constexpr const char* kDeviceTotalUs = "device_total_us";
inline constexpr const char* kDeviceSelfUs = "device_self_us";
inline constexpr const char* kMeanUs = "avg_us";
inline constexpr const char* kStartUs = "start_us";
} // namespace module_column

// The columns of a module: Module, Module Id, Calls, Operators, Host and
// Device Total and Self, Mean; and a module's cells under them.
std::vector<table::Column> moduleColumns();
std::vector<table::Cell> moduleCells(const ModuleRow& module);

// How the flattened tree names a module.
enum class ModuleNames {
    Indented, // two spaces per level before the name (text)
    Path,     // a first column "path": "Net#100/Conv2d#200" (data)
};
// Every module of the tree, parents first.
table::TableSpec moduleTreeTable(const ModuleView& view, ModuleNames names);

// A module's calls: start from the start of the trace, and host duration.
table::TableSpec moduleCallTable(const std::vector<ModuleCall>& calls);

} // namespace ts
