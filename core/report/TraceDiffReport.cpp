#include "report/TraceDiffReport.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "report/DiffTables.h"
#include "report/GpuTraceReport.h"
#include "report/MarkdownTable.h"
#include "report/RunDirectory.h"
#include "report/RunTraceFile.h"
#include "trace/ChromeTraceReader.h"
#include "trace/TraceCache.h"
#include "util/Csv.h"

namespace ts {

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

double us(double ns) {
    return ns / 1000;
}

// Kernel names run to hundreds of characters (template arguments); the
// text table keeps the start, CSV and JSON the whole name.
std::string shortName(const std::string& name) {
    constexpr size_t kWidth = 60;
    return name.size() <= kWidth ? name : name.substr(0, kWidth - 3) + "...";
}

std::string sideLine(const char* which, const TraceDiffSide& s, bool per_step) {
    std::string line = std::string(which) + ": " + s.label + " (" +
                       (s.kineto ? "torch.profiler" : "Trainscope") + " trace, ";
    line += s.has_steps ? std::to_string(s.steps) + " steps" : "no steps";
    if (!per_step && s.has_steps) line += ", totals";
    return line + ")\n";
}

std::string rowsText(const std::vector<DiffRow>& rows, bool by_device, bool kernels, size_t limit) {
    std::vector<DiffRow> changed;
    for (const DiffRow& r : rows)
        if (r.status != DiffStatus::Unchanged && (limit == 0 || changed.size() < limit))
            changed.push_back(r);
    if (changed.empty()) return "  (none changed)\n";
    table::TableSpec spec = diffRowTable(changed, {kernels, by_device});
    for (std::vector<table::Cell>& row : spec.rows)
        row[0].text = shortName(row[0].text);
    return table::toText(spec);
}

// CSV with the columns' keys for a header and the cells' texts.
std::string keyedCsv(table::TableSpec spec) {
    for (table::Column& c : spec.columns)
        c.title = c.key;
    return table::toCsv(spec);
}

std::string rowsCsv(const std::vector<DiffRow>& rows, bool kernels, size_t limit) {
    return keyedCsv(table::firstRows(diffRowTable(rows, {kernels, true, DiffText::Data}), limit));
}

void treeCsv(const DiffNode& node, std::string& out) {
    auto side = [](const DiffNodeSide& s) {
        return std::vector<std::string>{
            s.name, std::to_string(s.nodes), microsText(double(s.duration_ns)),
            microsText(double(s.device_duration_ns)), microsText(double(s.total_duration_ns))};
    };
    std::vector<std::string> row{node.path, node.matched ? "1" : "0"};
    for (const auto& f : side(node.a))
        row.push_back(f);
    for (const auto& f : side(node.b))
        row.push_back(f);
    out += csvLine(row) + "\n";
    for (const DiffNode& child : node.children)
        treeCsv(child, out);
}

json sideJson(const TraceDiffSide& s) {
    return {{"label", s.label}, {"kineto", s.kineto},       {"has_steps", s.has_steps},
            {"steps", s.steps}, {"step_us", us(s.step_ns)}, {"has_device_time", s.has_device_time}};
}

json rowsJson(const std::vector<DiffRow>& rows, bool kernels, size_t limit) {
    return table::rowsJson(
        table::firstRows(diffRowTable(rows, {kernels, true, DiffText::Data}), limit));
}

json nodeSideJson(const DiffNodeSide& s) {
    json aggs = json::array();
    for (const DiffOpAggregate& a : s.aggregates)
        aggs.push_back({{"name", a.name},
                        {"calls", a.calls},
                        {"host_duration_us", us(double(a.host_ns))},
                        {"device_duration_us", us(double(a.device_ns))},
                        {"self_host_duration_us", us(double(a.self_host_ns))},
                        {"self_device_duration_us", us(double(a.self_device_ns))}});
    return {{"name", s.name},
            {"blank", s.blank},
            {"composite", s.composite},
            {"nodes", s.nodes},
            {"duration_us", us(double(s.duration_ns))},
            {"device_duration_us", us(double(s.device_duration_ns))},
            {"total_duration_us", us(double(s.total_duration_ns))},
            {"aggregates", std::move(aggs)}};
}

json nodeJson(const DiffNode& node) {
    json children = json::array();
    for (const DiffNode& child : node.children)
        children.push_back(nodeJson(child));
    return {{"path", node.path},
            {"matched", node.matched},
            {"delta_us", us(double(node.deltaNs()))},
            {"a", nodeSideJson(node.a)},
            {"b", nodeSideJson(node.b)},
            {"children", std::move(children)}};
}

json stepJson(const AlignedStep& s) {
    json ops = json::array();
    for (const AlignedOp& op : s.ops)
        ops.push_back({{"name", op.name},
                       {"start_us", us(double(op.start_ns))},
                       {"end_us", us(double(op.end_ns))},
                       {"pair", op.pair},
                       {"changed", op.changed}});
    return {{"index", s.index},
            {"label", s.label},
            {"start_us", us(double(s.start_ns))},
            {"end_us", us(double(s.end_ns))},
            {"ops", std::move(ops)}};
}

json alignmentJson(const StepAlignment& al) {
    json pairs = json::array();
    for (const AlignedPair& p : al.pairs)
        pairs.push_back(
            {{"name_a", p.name_a},
             {"name_b", p.name_b},
             {"matched", p.matched},
             {"a", p.has_a ? json::array({us(double(p.a_start_ns)), us(double(p.a_end_ns))})
                           : json(nullptr)},
             {"b", p.has_b ? json::array({us(double(p.b_start_ns)), us(double(p.b_end_ns))})
                           : json(nullptr)},
             {"delta_us", us(double(p.delta_ns))},
             {"changed", p.changed}});
    return {{"a", stepJson(al.a)}, {"b", stepJson(al.b)}, {"pairs", std::move(pairs)}};
}

} // namespace

Trace readTraceDiffInput(const fs::path& path) {
    const fs::path file = runTraceFile(path);
    const TraceCacheSettings cache; // a large trace compared again loads from its index
    TraceOpening opening;
    Trace trace = openTrace(file, {}, cache, opening);
    keepTraceIndex(trace, cache, opening);
    return trace;
}

std::string traceDiffText(const TraceDiff& diff, size_t limit) {
    std::string out = sideLine("A", diff.a, diff.per_step) + sideLine("B", diff.b, diff.per_step);
    out += "step time: " + fixed(us(diff.a.step_ns), 1) + " us -> " + fixed(us(diff.b.step_ns), 1) +
           " us (" + changeText(diff.a.step_ns, diff.b.step_ns) + ")";
    out += diff.per_step ? ", figures per step" : ", figures are totals";
    out += "; changes under " + fixed(us(diff.threshold_ns), 1) + " us count as unchanged\n\n";
    out += std::string("Step ") +
           (diff.categories_comparable ? "categories" : "time (traces of different kinds)") +
           " (mean per step)\n";
    out += table::toText(diffCategoryTable(diff.categories));
    out += "\nChanged operators (by impact on the step)\n";
    out += rowsText(diff.operators, diff.by_device, false, limit);
    out += "\nChanged kernels (by impact on the step)\n";
    out += diff.kernels.empty() ? "  (no kernels)\n" : rowsText(diff.kernels, true, true, limit);
    return out;
}

std::string traceDiffCsv(const TraceDiff& diff, size_t limit) {
    std::string out = csvLine({"side", "label", "kind", "has_steps", "steps", "step_us",
                               "has_device_time", "per_step", "threshold_us"}) +
                      "\n";
    for (const auto* s : {&diff.a, &diff.b})
        out += csvLine({s == &diff.a ? "A" : "B", s->label, s->kineto ? "kineto" : "trainscope",
                        s->has_steps ? "1" : "0", std::to_string(s->steps), microsText(s->step_ns),
                        s->has_device_time ? "1" : "0", diff.per_step ? "1" : "0",
                        microsText(diff.threshold_ns)}) +
               "\n";
    out += "\n" + keyedCsv(diffCategoryTable(diff.categories, DiffText::Data));
    out += "\n" + rowsCsv(diff.operators, false, limit);
    out += "\n" + rowsCsv(diff.kernels, true, limit);
    out += "\n" +
           csvLine({"pair", "name_a", "name_b", "matched", "a_start_us", "a_end_us", "b_start_us",
                    "b_end_us", "delta_us", "changed"}) +
           "\n";
    for (size_t i = 0; i < diff.alignment.pairs.size(); ++i) {
        const AlignedPair& p = diff.alignment.pairs[i];
        auto at = [](bool has, int64_t ns) { return has ? microsText(double(ns)) : std::string(); };
        out += csvLine({std::to_string(i), p.name_a, p.name_b, p.matched ? "1" : "0",
                        at(p.has_a, p.a_start_ns), at(p.has_a, p.a_end_ns),
                        at(p.has_b, p.b_start_ns), at(p.has_b, p.b_end_ns),
                        microsText(double(p.delta_ns)), p.changed ? "1" : "0"}) +
               "\n";
    }
    out += "\n" +
           csvLine({"path", "matched", "a_name", "a_nodes", "a_duration_us", "a_device_duration_us",
                    "a_total_duration_us", "b_name", "b_nodes", "b_duration_us",
                    "b_device_duration_us", "b_total_duration_us"}) +
           "\n";
    treeCsv(diff.tree, out);
    return out;
}

json traceDiffJson(const TraceDiff& diff, size_t limit) {
    return {{"a", sideJson(diff.a)},
            {"b", sideJson(diff.b)},
            {"per_step", diff.per_step},
            {"by_device", diff.by_device},
            {"categories_comparable", diff.categories_comparable},
            {"threshold_us", us(diff.threshold_ns)},
            {"step_delta_us", us(diff.stepDeltaNs())},
            {"step_change", diff.stepChange()},
            {"categories", table::rowsJson(diffCategoryTable(diff.categories, DiffText::Data))},
            {"operators", rowsJson(diff.operators, false, limit)},
            {"kernels", rowsJson(diff.kernels, true, limit)},
            {"changed_operators", diff.changed_operators},
            {"tree", nodeJson(diff.tree)},
            {"alignment", alignmentJson(diff.alignment)}};
}

} // namespace ts
