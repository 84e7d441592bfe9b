#include "report/ModuleReport.h"

#include <nlohmann/json.hpp>

#include "report/ModuleTables.h"

namespace ts {

namespace {

using json = nlohmann::json;

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
    return "Modules:\n" + table::toText(moduleTreeTable(view, ModuleNames::Indented));
}

std::string modulesCsv(const ModuleView& view) {
    return table::toDataCsv(moduleTreeTable(view, ModuleNames::Path));
}

json modulesJson(const ModuleView& view) {
    json modules = json::array();
    for (const ModuleRow& m : view.roots)
        modules.push_back(moduleJson(m));
    return {{"modules", std::move(modules)}};
}

} // namespace ts
