#include "report/GpuTables.h"

#include "report/GpuTraceReport.h"
#include "report/MarkdownTable.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, ColumnUnit, …

Cell micros(int64_t ns) {
    return numberCell(microsText(double(ns)), double(ns) / 1000);
}

Cell integer(int64_t n) {
    return numberCell(std::to_string(n), double(n));
}

Column text(const char* title, const char* tooltip) {
    return Column{title, title, tooltip, ColumnKind::Text};
}
Column number(const char* title, const char* tooltip, ColumnKind kind = ColumnKind::Number,
              ColumnUnit unit = ColumnUnit::None) {
    return Column{title, title, tooltip, kind, false, unit};
}
Column microsColumn(const char* title, const char* tooltip) {
    return number(title, tooltip, ColumnKind::Number, ColumnUnit::Microseconds);
}

std::vector<Column> kernelColumns(bool by_op) {
    std::vector<Column> c{text(kernel_column::kName, "Kernel name")};
    if (by_op)
        c.insert(c.end(), {text("Operator", "The operator that launched the kernel"),
                           text("Grid", "Grid dimensions"), text("Block", "Block dimensions"),
                           text("Registers Per Thread", "Registers per thread"),
                           text("Shared Memory", "Shared memory (bytes)")});
    c.push_back(text("Tensor Cores Used", "The kernel runs on Tensor Cores (by its name)"));
    if (by_op)
        c.push_back(text("Op Tensor Cores Eligible",
                         "The launching operator is one that can use Tensor Cores"));
    c.insert(c.end(),
             {number("Calls", "Number of launches", ColumnKind::Integer),
              microsColumn(kernel_column::kTotalUs, "Total duration"),
              microsColumn("Mean (us)", "Mean duration"),
              microsColumn("Max (us)", "Longest launch"),
              microsColumn("Min (us)", "Shortest launch"),
              number("Mean Blocks Per SM", "Duration-weighted mean of Kineto's blocks per SM"),
              number("Mean Est. Achieved Occupancy (%)",
                     "Duration-weighted mean of Kineto's estimated achieved occupancy",
                     ColumnKind::Number, ColumnUnit::Percent)});
    c[c.size() - 2].hide_when_empty = true;
    c[c.size() - 1].hide_when_empty = true;
    return c;
}

std::vector<Cell> kernelCells(const KernelTables& t, const KernelRow& r, const KernelOpRow* o) {
    std::vector<Cell> row{textCell(r.name)};
    if (o)
        row.insert(row.end(), {textCell(o->op_name), textCell(o->grid), textCell(o->block),
                               textCell(o->registers), textCell(o->shared_memory)});
    row.push_back(yesNoCell(r.tensor_cores));
    if (o) row.push_back(yesNoCell(o->op_tc_eligible));
    row.insert(row.end(), {integer(r.calls), micros(r.total_ns),
                           numberCell(fixed(r.meanNs() / 1000, 1), r.meanNs() / 1000),
                           micros(r.max_ns), micros(r.min_ns)});
    row.push_back(t.has_blocks_per_sm ? numberCell(fixed(r.blocks_per_sm, 2), r.blocks_per_sm)
                                      : Cell{});
    row.push_back(t.has_occupancy ? numberCell(fixed(r.occupancy, 2), r.occupancy) : Cell{});
    return row;
}

Cell percentCell(double ratio) {
    return numberCell(fixed(100 * ratio, 2), 100 * ratio);
}

} // namespace

table::TableSpec kernelTableSpec(const KernelTables& t, bool by_op) {
    table::TableSpec spec;
    spec.title = by_op ? "Kernels, by kernel, operator and launch" : "Kernels, by name";
    spec.columns = kernelColumns(by_op);
    spec.json_numbers = false; // the plugin's CSV: every cell as text
    if (by_op)
        for (const KernelOpRow& r : t.by_op)
            spec.rows.push_back(kernelCells(t, r, &r));
    else
        for (const KernelRow& r : t.by_name)
            spec.rows.push_back(kernelCells(t, r, nullptr));
    return spec;
}

table::TableSpec deviceOpTableSpec(const DeviceOpTable& t) {
    table::TableSpec spec;
    spec.title =
        std::string("Operators, by ") + (t.by_device ? "device self time" : "host self time");
    const ColumnKind n = ColumnKind::Number;
    const ColumnUnit us = ColumnUnit::Microseconds, pct = ColumnUnit::Percent;
    spec.columns = {
        Column{"name", "Name", "Operator name"},
        Column{device_op_column::kShapes, "Input Shape", "Input shapes of the calls",
               ColumnKind::Text, true},
        Column{device_op_column::kCallStack, "Call Stack", "Python call stack of the calls",
               ColumnKind::Text, true},
        Column{"calls", "Calls", "Number of calls", ColumnKind::Integer},
        Column{device_op_column::kDeviceSelfUs, "Device Self (us)", "GPU time of its own kernels",
               n, false, us},
        Column{device_op_column::kDeviceTotalUs, "Device Total (us)",
               "GPU time with its children's", n, false, us},
        Column{device_op_column::kHostSelfUs, "Host Self (us)", "CPU time without its children", n,
               false, us},
        Column{"host_total_us", "Host Total (us)", "CPU time with its children", n, false, us},
        Column{"tc_eligible", "Tensor Cores Eligible", "An operator that can use Tensor Cores",
               ColumnKind::YesNo},
        Column{device_op_column::kTcSelfPct, "Tensor Cores Self (%)",
               "Share of its own GPU time on Tensor Cores", n, false, pct},
        Column{device_op_column::kTcTotalPct, "Tensor Cores Total (%)",
               "Share of its GPU time with its children's on Tensor Cores", n, false, pct},
        Column{"has_call_stack", "Has Call Stack", "Some call recorded a call stack",
               ColumnKind::YesNo},
    };
    for (const DeviceOpRow& r : t.rows)
        spec.rows.push_back({textCell(r.name), textCell(r.shapes), textCell(r.call_stack),
                             integer(r.calls), micros(r.device_self_ns), micros(r.device_total_ns),
                             micros(r.host_self_ns), micros(r.host_total_ns),
                             yesNoCell(r.tc_eligible), percentCell(r.tcSelfRatio()),
                             percentCell(r.tcTotalRatio()), yesNoCell(r.has_call_stack)});
    return spec;
}

} // namespace ts
