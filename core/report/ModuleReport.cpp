#include "report/ModuleReport.h"

#include <nlohmann/json.hpp>

#include "report/GpuTraceReport.h"
#include "report/MarkdownTable.h"
#include "util/Csv.h"

namespace ts {

namespace {

using json = nlohmann::json;

std::vector<std::string> figures(const ModuleRow& m) {
    return {std::to_string(m.occurrences),
            std::to_string(m.operators),
            microsText(double(m.host_total_ns)),
            microsText(double(m.host_self_ns)),
            microsText(double(m.device_total_ns)),
            microsText(double(m.device_self_ns)),
            microsText(m.avgNs())};
}

const std::vector<std::string> kFigureHeaders = {
    "Calls", "Operators", "Host Total", "Host Self", "Device Total", "Device Self", "Mean"};

void textRows(const ModuleRow& m, size_t depth, TableRows& rows) {
    std::vector<std::string> row{std::string(2 * depth, ' ') + m.name, std::to_string(m.module_id)};
    for (std::string& f : figures(m))
        row.push_back(std::move(f));
    rows.push_back(std::move(row));
    for (const ModuleRow& c : m.children)
        textRows(c, depth + 1, rows);
}

void csvRows(const ModuleRow& m, const std::string& parent, std::string& out) {
    const std::string path =
        (parent.empty() ? "" : parent + "/") + m.name + "#" + std::to_string(m.module_id);
    std::vector<std::string> row{path, m.name, std::to_string(m.module_id)};
    for (std::string& f : figures(m))
        row.push_back(std::move(f));
    out += csvLine(row) + "\n";
    for (const ModuleRow& c : m.children)
        csvRows(c, path, out);
}

json moduleJson(const ModuleRow& m) {
    json calls = json::array();
    for (const ModuleCall& c : m.calls)
        calls.push_back({double(c.start_ns) / 1000, double(c.end_ns) / 1000});
    json children = json::array();
    for (const ModuleRow& c : m.children)
        children.push_back(moduleJson(c));
    return {{"name", m.name},
            {"id", m.module_id},
            {"occurrences", m.occurrences},
            {"operators", m.operators},
            {"host_total_us", double(m.host_total_ns) / 1000},
            {"host_self_us", double(m.host_self_ns) / 1000},
            {"device_total_us", double(m.device_total_ns) / 1000},
            {"device_self_us", double(m.device_self_ns) / 1000},
            {"avg_us", m.avgNs() / 1000},
            {"calls", std::move(calls)},
            {"children", std::move(children)}};
}

} // namespace

std::string modulesText(const ModuleView& view) {
    TableRows rows;
    for (const ModuleRow& m : view.roots)
        textRows(m, 0, rows);
    std::vector<std::string> headers{"Module", "Id"};
    headers.insert(headers.end(), kFigureHeaders.begin(), kFigureHeaders.end());
    return "Modules (us):\n" + plainTable(headers, rows);
}

std::string modulesCsv(const ModuleView& view) {
    std::string out =
        csvLine({"path", "name", "module_id", "occurrences", "operators", "host_total_us",
                 "host_self_us", "device_total_us", "device_self_us", "avg_us"}) +
        "\n";
    for (const ModuleRow& m : view.roots)
        csvRows(m, "", out);
    return out;
}

json modulesJson(const ModuleView& view) {
    json modules = json::array();
    for (const ModuleRow& m : view.roots)
        modules.push_back(moduleJson(m));
    return {{"modules", std::move(modules)}};
}

} // namespace ts
