// formatOpTableText: report/OpTables.h's table in torch.profiler's layout.
#include <algorithm>
#include <sstream>

#include "analysis/OpTableFormat.h"
#include "report/OpTables.h"

namespace ts {
namespace {

// The columns torch.profiler prints, in its order, and how wide a cell may be.
struct TorchColumn {
    const char* key;
    size_t max_width; // 0: no cap
};

std::vector<TorchColumn> torchColumns(const OpTable& t, size_t rows) {
    bool device = t.total_self_device_ns > 0, memory = false, shapes = false, flops = false;
    for (size_t i = 0; i < rows; ++i) {
        const OpStat& r = t.rows[i];
        device = device || r.device_total_ns > 0;
        memory = memory || r.cpu_mem_bytes != 0 || r.self_cpu_mem_bytes != 0;
        shapes = shapes || !r.shapes.empty();
        flops = flops || r.flops > 0;
    }
    std::vector<TorchColumn> c = {{"name", 55},         {"self_cpu_pct", 0}, {"self_cpu_ns", 0},
                                  {"cpu_total_pct", 0}, {"cpu_total_ns", 0}, {"cpu_avg_ns", 0}};
    if (device) c.insert(c.end(), {{"self_device_ns", 0}, {"device_total_ns", 0}});
    if (memory) c.insert(c.end(), {{"cpu_mem_bytes", 0}, {"self_cpu_mem_bytes", 0}});
    c.push_back({"calls", 0});
    if (shapes) c.push_back({"input_shapes", 80});
    if (flops) c.insert(c.end(), {{"flops", 0}, {"gflop_per_s", 0}});
    return c;
}

std::string fit(const std::string& text, size_t width) {
    if (width == 0 || text.size() <= width) return text;
    return text.substr(0, width - 3) + "...";
}

// Right-aligned cells under a header between rules, two spaces after each.
std::string torchLayout(const std::vector<std::vector<std::string>>& lines) {
    std::vector<size_t> width(lines.front().size(), 0);
    for (const auto& line : lines)
        for (size_t k = 0; k < line.size(); ++k)
            width[k] = std::max(width[k], line[k].size());
    std::ostringstream out;
    auto rule = [&] {
        for (size_t w : width)
            out << std::string(w, '-') << "  ";
        out << '\n';
    };
    auto line = [&](const std::vector<std::string>& texts) {
        for (size_t k = 0; k < width.size(); ++k)
            out << std::string(width[k] - texts[k].size(), ' ') << texts[k] << "  ";
        out << '\n';
    };
    rule();
    line(lines.front());
    rule();
    for (size_t r = 1; r < lines.size(); ++r)
        line(lines[r]);
    rule();
    return out.str();
}

} // namespace

std::string formatOpTableText(const OpTable& table, size_t limit) {
    const table::TableSpec spec = table::firstRows(opTableSpec(table), limit);
    const std::vector<TorchColumn> columns = torchColumns(table, spec.rows.size());
    std::vector<std::vector<std::string>> lines(spec.rows.size() + 1);
    for (const TorchColumn& c : columns) {
        const size_t k = size_t(spec.columnIndex(c.key));
        lines[0].push_back(spec.columns[k].title);
        for (size_t r = 0; r < spec.rows.size(); ++r)
            lines[r + 1].push_back(fit(spec.rows[r][k].text, c.max_width));
    }
    std::string out = torchLayout(lines);
    out += "Self CPU time total: " + formatDurationNs(double(table.total_self_cpu_ns)) + '\n';
    if (table.total_self_device_ns > 0)
        out +=
            "Self CUDA time total: " + formatDurationNs(double(table.total_self_device_ns)) + '\n';
    return out;
}

} // namespace ts
