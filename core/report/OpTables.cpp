#include "report/OpTables.h"

#include <algorithm>
#include <cstdio>

#include "analysis/OpTableFormat.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, ColumnUnit, …

std::string printf1(const char* format, double value) {
    char text[64];
    std::snprintf(text, sizeof(text), format, value);
    return text;
}

Cell share(int64_t part, int64_t total) {
    if (total <= 0) return Cell{"--"};
    const double ratio = double(part) / double(total);
    return table::numberCell(printf1("%.2f%%", 100 * ratio), ratio);
}

Cell duration(double ns) {
    return table::numberCell(formatDurationNs(ns), ns);
}

Cell memory(int64_t bytes) {
    return table::numberCell(formatBytes(bytes), double(bytes));
}

// Unknown (0) FLOP figures are "--" and sort last.
Cell known(double value, const char* format, double scale = 1) {
    return value > 0 ? table::numberCell(printf1(format, value * scale), value) : Cell{"--"};
}

Column column(const char* key, const char* title, const char* tooltip,
              ColumnUnit unit = ColumnUnit::None) {
    return Column{key, title, tooltip, ColumnKind::Number, false, unit};
}

std::vector<Column> opColumns() {
    namespace oc = op_column;
    const ColumnUnit ns = ColumnUnit::Nanoseconds, bytes = ColumnUnit::Bytes;
    return {
        Column{oc::kName, "Name", "Operator or autograd node"},
        column("self_cpu_pct", "Self CPU %", "Share of all self CPU time"),
        column(oc::kSelfCpu, "Self CPU", "Time in the operator itself, children excluded", ns),
        column("cpu_total_pct", "CPU total %", "CPU total over all self CPU time"),
        column("cpu_total_ns", "CPU total", "Time including children", ns),
        column("cpu_avg_ns", "CPU time avg", "CPU total per call", ns),
        column(oc::kSelfDevice, "Self CUDA", "Device time of the operator itself", ns),
        column(oc::kDeviceTotal, "CUDA total", "Device time including children", ns),
        column("cpu_mem_bytes", "CPU Mem", "Bytes allocated inside the operator, children included",
               bytes),
        column("self_cpu_mem_bytes", "Self CPU Mem", "Bytes allocated by the operator itself",
               bytes),
        Column{"calls", "# of Calls", "Number of calls", ColumnKind::Integer},
        Column{oc::kShapes, "Input Shapes", "Shapes of the inputs (when grouped by shape)"},
        column("flops", "GFLOPs", "Floating point operations (2 per multiply-add)",
               ColumnUnit::Flops),
        column("gflop_per_s", "GFLOP/s", "Achieved rate over self time"),
        Column{"pass", "Pass", "Forward operator or backward (autograd) work"},
        column("arithmetic_intensity", "FLOP/byte", "Arithmetic intensity (FLOPs per byte moved)"),
    };
}

std::vector<Cell> opCells(const OpStat& r, const OpTable& t) {
    const int64_t total = t.total_self_cpu_ns;
    return {table::textCell(r.name),
            share(r.self_cpu_ns, total),
            duration(double(r.self_cpu_ns)),
            share(r.cpu_total_ns, total),
            duration(double(r.cpu_total_ns)),
            duration(r.avgCpuNs()),
            duration(double(r.self_device_ns)),
            duration(double(r.device_total_ns)),
            memory(r.cpu_mem_bytes),
            memory(r.self_cpu_mem_bytes),
            table::integerCell(r.calls),
            table::textCell(r.shapes),
            known(r.flops, "%.3f", 1e-9),
            r.flops > 0 ? table::numberCell(printf1("%.2f", r.gflopsPerSec()), r.gflopsPerSec())
                        : Cell{"--"},
            table::textCell(r.backward ? "backward" : "forward"),
            known(r.arithmeticIntensity(), "%.3f")};
}

} // namespace

table::TableSpec opTableSpec(const OpTable& t) {
    table::TableSpec spec;
    spec.title = "Operators";
    spec.columns = opColumns();
    spec.rows.reserve(t.rows.size());
    for (const OpStat& r : t.rows)
        spec.rows.push_back(opCells(r, t));
    return spec;
}

} // namespace ts
