#include "report/ModuleTables.h"

#include "report/GpuTraceReport.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, ColumnUnit, …

table::Cell micros(double ns) {
    return table::numberCell(microsText(ns), ns / 1000);
}

Column microsColumn(const char* key, const char* title, const char* tooltip) {
    return Column{key, title, tooltip, ColumnKind::Number, false, table::ColumnUnit::Microseconds};
}

void addRows(const ModuleRow& m, size_t depth, const std::string& parent, ModuleNames names,
             table::TableSpec& spec) {
    std::vector<table::Cell> row = moduleCells(m);
    const std::string path =
        (parent.empty() ? "" : parent + "/") + m.name + "#" + std::to_string(m.module_id);
    if (names == ModuleNames::Path)
        row.insert(row.begin(), table::textCell(path));
    else
        row[0].text.insert(0, 2 * depth, ' ');
    spec.rows.push_back(std::move(row));
    for (const ModuleRow& c : m.children)
        addRows(c, depth + 1, path, names, spec);
}

} // namespace

std::vector<Column> moduleColumns() {
    namespace mc = module_column;
    return {
        Column{mc::kName, "Module",
               "The module's class; its place in the tree is where it was called from"},
        Column{"module_id", "Module Id",
               "torch.profiler's Python module id (one per module instance)", ColumnKind::Integer},
        Column{mc::kCalls, "Calls", "Calls of the module's forward at this place",
               ColumnKind::Integer},
        Column{mc::kOperators, "Operators",
               "Operators it called directly (not through a child module)", ColumnKind::Integer},
        microsColumn(mc::kHostTotalUs, "Host Total (us)", "CPU time inside its calls"),
        microsColumn(mc::kHostSelfUs, "Host Self (us)",
                     "CPU time inside its calls, less its child modules'"),
        microsColumn(mc::kDeviceTotalUs, "Device Total (us)",
                     "GPU time of the kernels, copies and sets its operators launched"),
        microsColumn(mc::kDeviceSelfUs, "Device Self (us)",
                     "GPU time launched by the operators it called directly"),
        microsColumn(mc::kMeanUs, "Mean (us)",
                     "Device time per call, or host time per call without device work"),
    };
}

std::vector<table::Cell> moduleCells(const ModuleRow& m) {
    return {table::textCell(m.name),
            table::integerCell(m.module_id),
            table::integerCell(m.occurrences),
            table::integerCell(m.operators),
            micros(double(m.host_total_ns)),
            micros(double(m.host_self_ns)),
            micros(double(m.device_total_ns)),
            micros(double(m.device_self_ns)),
            micros(m.avgNs())};
}

table::TableSpec moduleTreeTable(const ModuleView& view, ModuleNames names) {
    table::TableSpec spec;
    spec.title = "Modules";
    spec.columns = moduleColumns();
    if (names == ModuleNames::Path)
        spec.columns.insert(spec.columns.begin(),
                            Column{"path", "Path", "The module's ancestors and itself, Name#id"});
    for (const ModuleRow& m : view.roots)
        addRows(m, 0, "", names, spec);
    return spec;
}

table::TableSpec moduleCallTable(const std::vector<ModuleCall>& calls) {
    table::TableSpec spec;
    spec.title = "Calls";
    spec.columns = {
        microsColumn(module_column::kStartUs, "Start (us)", "From the start of the trace"),
        microsColumn("duration_us", "Duration (us)", "Host time of the call")};
    for (const ModuleCall& c : calls)
        spec.rows.push_back({micros(double(c.start_ns)), micros(double(c.end_ns - c.start_ns))});
    return spec;
}

} // namespace ts
