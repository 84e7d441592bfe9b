#include "report/CriticalPathTables.h"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "report/DiagnosisCells.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, …
using diagnosis::micros;
using diagnosis::percentCell;
using diagnosis::percentColumn;
using diagnosis::usColumn;

double us(int64_t ns) {
    return double(ns) / 1000.0;
}

// "11.8 ms", "950.0 us".
std::string duration(int64_t ns) {
    char text[64];
    if (ns >= 1000000)
        std::snprintf(text, sizeof text, "%.1f ms", double(ns) / 1e6);
    else
        std::snprintf(text, sizeof text, "%.1f us", us(ns));
    return text;
}

// What the Of Step column sums to: the path's length against the window's.
double stepShareSum(const CriticalPathReport& report) {
    double sum = 0;
    for (const CpShare& s : report.breakdown)
        sum += s.step_pct;
    return sum;
}

Column pathShareColumn() {
    return percentColumn("pct", "Of Path (%)", "Share of the critical path's length");
}

Column stepShareColumn() {
    return percentColumn("step_pct", "Of Step (%)",
                         "Share of the window (the step or annotation) analysed");
}

const char* kindOf(const CpSegment& s) {
    switch (s.type) {
    case CpEdgeType::LaunchDelay:
        return "launch delay";
    case CpEdgeType::KernelDelay:
        return "kernel gap";
    default:
        return s.bound == BoundBy::GpuCompute || s.bound == BoundBy::GpuCommunication ? "kernel"
                                                                                      : "cpu";
    }
}

nlohmann::json sharesJson(const std::vector<CpShare>& shares, bool bounds) {
    nlohmann::json out = nlohmann::json::array();
    for (const CpShare& s : shares) {
        nlohmann::json j{{bounds ? "bound_by" : "name", s.name},
                         {"duration_us", us(s.ns)},
                         {"pct", s.pct},
                         {"step_pct", s.step_pct}};
        if (!bounds) {
            j["bound_by"] = toString(s.bound);
            j["events"] = s.events;
        }
        out.push_back(j);
    }
    return out;
}

nlohmann::json segmentsJson(const Trace& trace, const std::vector<CpSegment>& segments,
                            int64_t origin) {
    nlohmann::json out = nlohmann::json::array();
    for (const CpSegment& s : segments)
        out.push_back({{"event", s.event},
                       {"name", s.event >= 0 ? trace.nameOf(trace.events[size_t(s.event)]) : ""},
                       {"bound_by", toString(s.bound)},
                       {"type", toString(s.type)},
                       {"start_us", us(s.start - origin)},
                       {"duration_us", us(s.ns)}});
    return out;
}

nlohmann::json whatIfJson(const Trace& trace, const WhatIfResult& w, int64_t origin,
                          bool with_path) {
    nlohmann::json j{{"what", w.label},
                     {"path_us", us(w.path_ns)},
                     {"saved_us", us(w.saved_ns)},
                     {"step_us", us(w.step_ns)},
                     {"breakdown", sharesJson(w.breakdown, true)}};
    if (with_path) j["path"] = segmentsJson(trace, w.segments, origin);
    return j;
}

} // namespace

table::TableSpec criticalPathBoundTable(const CriticalPathReport& report) {
    TableSpec spec;
    char title[256];
    std::snprintf(title, sizeof title, "Critical path of %s: %.1f us of its %.1f us, by bound",
                  report.graph.window.label.c_str(), us(report.path.length_ns), us(report.step_ns));
    spec.title = title;
    spec.columns = {Column{"bound_by", "Bound By",
                           "What the path's time waited for (Holistic Trace Analysis' categories)"},
                    usColumn("duration_us", "Duration (us)", "Time of the path in this category"),
                    pathShareColumn(), stepShareColumn()};
    for (const CpShare& s : report.breakdown)
        spec.rows.push_back(
            {textCell(s.name), micros(double(s.ns)), percentCell(s.pct), percentCell(s.step_pct)});
    return spec;
}

table::TableSpec criticalPathItemTable(const CriticalPathReport& report) {
    TableSpec spec;
    spec.title = "Operators and kernels on the critical path";
    spec.columns = {
        Column{"kind", "Kind", "A CPU operator (its own time between its children) or a kernel"},
        usColumn("duration_us", "On Path (us)", "Its time on the critical path"),
        pathShareColumn(),
        stepShareColumn(),
        Column{"events", "Events", "Calls of that name on the path", ColumnKind::Integer},
        Column{"bound_by", "Bound By", "The category its time counts in"},
        Column{"name", "Name", "Operator or kernel"}};
    std::vector<const CpShare*> all;
    for (const CpShare& s : report.operators)
        all.push_back(&s);
    for (const CpShare& s : report.kernels)
        all.push_back(&s);
    std::stable_sort(all.begin(), all.end(),
                     [](const CpShare* a, const CpShare* b) { return a->ns > b->ns; });
    for (const CpShare* s : all) {
        spec.rows.push_back({textCell(s->kernel ? "kernel" : "operator"), micros(double(s->ns)),
                             percentCell(s->pct), percentCell(s->step_pct),
                             integerCell(int64_t(s->events)), textCell(toString(s->bound)),
                             textCell(s->name)});
        spec.row_events.push_back(s->longest);
    }
    return spec;
}

table::TableSpec whatIfTable(const CriticalPathReport& report, const WhatIfResult* asked) {
    TableSpec spec;
    spec.title = "What if: the step with each item twice as fast";
    spec.columns = {
        Column{"what", "What If", "The change: operators, kernels or a category, and its factor"},
        usColumn("saved_us", "Saved (us)", "How much shorter the critical path becomes"),
        percentColumn("saved_pct", "Saved (%)", "Of the step"),
        usColumn("step_us", "Step (us)", "The step's duration minus what is saved"),
        usColumn("path_us", "New Path (us)", "The recomputed critical path's length"),
        Column{"bound_by", "New Path Bound By", "The new path's largest category"}};
    auto add = [&](const WhatIfResult& w) {
        const double saved_pct =
            report.step_ns > 0 ? 100.0 * double(w.saved_ns) / double(report.step_ns) : 0;
        spec.rows.push_back({textCell(w.label), micros(double(w.saved_ns)), percentCell(saved_pct),
                             micros(double(w.step_ns)), micros(double(w.path_ns)),
                             textCell(w.breakdown.empty() ? "" : w.breakdown.front().name)});
    };
    if (asked)
        add(*asked);
    else if (report.what_if)
        add(*report.what_if);
    for (const WhatIfResult& w : report.ranked)
        add(w);
    return spec;
}

table::TableSpec criticalPathEventTable(const Trace& trace, const CriticalPathReport& report) {
    TableSpec spec;
    spec.title = "The critical path, in order";
    spec.columns = {Column{"position", "#", "Order along the path", ColumnKind::Integer},
                    usColumn("start_us", "Start (us)", "From the window's start"),
                    usColumn("duration_us", "Duration (us)", "Time of this stretch"),
                    Column{"kind", "Kind", "CPU time, kernel time, a launch delay or a kernel gap"},
                    Column{"bound_by", "Bound By", "Its category"},
                    Column{"name", "Event", "The event the time belongs to"}};
    for (size_t i = 0; i < report.segments.size(); ++i) {
        const CpSegment& s = report.segments[i];
        spec.rows.push_back(
            {integerCell(int64_t(i + 1)), micros(double(s.start - report.graph.window.start)),
             micros(double(s.ns)), textCell(kindOf(s)), textCell(toString(s.bound)),
             textCell(s.event >= 0 ? trace.nameOf(trace.events[size_t(s.event)]) : "")});
        spec.row_events.push_back(s.event);
    }
    return spec;
}

table::TableSpec criticalPathWindowTable(const CriticalPathReport& report) {
    TableSpec spec;
    spec.title = "The critical path against its window";
    spec.columns = {
        Column{"window", "Window", "The step or annotation analysed (its range on the CPU)"},
        usColumn("step_us", "Step (us)", "The window's duration"),
        usColumn("path_us", "Path (us)", "The critical path's length"),
        usColumn("past_step_end_us", "Past Step End (us)",
                 "How far the path runs past the window's end: GPU work it launched that ends "
                 "later"),
        percentColumn("step_pct_sum", "Of Step, Summed (%)",
                      "What the Of Step column of the path's categories sums to"),
        Column{"note", "Note", "Why Of Step sums past 100%, when it does"}};
    spec.rows.push_back(
        {textCell(report.graph.window.label), micros(double(report.step_ns)),
         micros(double(report.path.length_ns)), micros(double(report.past_window_end_ns)),
         percentCell(stepShareSum(report)), textCell(criticalPathLengthNote(report))});
    return spec;
}

std::string criticalPathLengthNote(const CriticalPathReport& report) {
    if (report.path.length_ns <= report.step_ns || report.step_ns <= 0) return "";
    char sum[64];
    std::snprintf(sum, sizeof sum, "%.1f%%", stepShareSum(report));
    const std::string& window = report.graph.window.label;
    if (report.past_window_end_ns > 0)
        return "the path runs " + duration(report.past_window_end_ns) + " past the CPU end of " +
               window + " (the GPU work it launched ends later), so Of Step sums to " + sum;
    return "the path (" + duration(report.path.length_ns) + ") is longer than " + window + " (" +
           duration(report.step_ns) + "), so Of Step sums to " + sum;
}

nlohmann::json criticalPathJson(const Trace& trace, const CriticalPathReport& report) {
    const CpGraph& g = report.graph;
    nlohmann::json ranked = nlohmann::json::array();
    for (const WhatIfResult& w : report.ranked)
        ranked.push_back(whatIfJson(trace, w, g.window.start, false));
    nlohmann::json j{{"window", g.window.label},
                     {"window_start_us", us(g.window.start)},
                     {"step_duration_us", us(report.step_ns)},
                     {"path_us", us(report.path.length_ns)},
                     {"path_past_step_end_us", us(report.past_window_end_ns)},
                     {"step_pct_sum", stepShareSum(report)},
                     {"breakdown", sharesJson(report.breakdown, true)},
                     {"operators", sharesJson(report.operators, false)},
                     {"kernels", sharesJson(report.kernels, false)},
                     {"path", segmentsJson(trace, report.segments, g.window.start)},
                     {"ranked", ranked},
                     {"graph",
                      {{"nodes", g.nodes.size()},
                       {"edges", g.edges.size()},
                       {"kernels", g.kernels},
                       {"unlinked_kernels", g.unlinked_kernels},
                       {"negative_edges", g.negative_edges},
                       {"cycle_edges", g.cycle_edges}}},
                     {"notes", g.notes}};
    if (report.what_if) j["what_if"] = whatIfJson(trace, *report.what_if, g.window.start, true);
    if (const std::string note = criticalPathLengthNote(report); !note.empty())
        j["notes"].push_back(note);
    return j;
}

} // namespace ts
