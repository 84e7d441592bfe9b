// `trace-stats --view critical-path`: the critical path of a step (--step),
// an annotation's instance (--annotation, --instance) or the first step, of
// one trace or one rank of a folder (--rank), with what-if factors
// (--what-if kernel:NAME=0.5, repeatable) and the ranked halvings.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "analysis/CriticalPath.h"
#include "analysis/LaunchIndex.h"
#include "inspect/TraceInput.h"
#include "inspect/TraceViewPrinters.h"
#include "report/CriticalPathTables.h"
#include "trace/RankFolder.h"

namespace ts::printers {
namespace {

int64_t wholeNumber(const std::string& text, const char* option) {
    return wholeOption(text, option, 0, INT64_MAX, "a whole number, 0 or more");
}

// The trace of the rank asked for (--rank), or of the lowest one.
const RankTrace& chosenRank(const std::vector<RankTrace>& ranks, const TraceStatsOptions& o) {
    std::string have;
    for (const RankTrace& r : ranks) {
        if (o.rank.empty() || r.rank == wholeNumber(o.rank, "--rank")) return r;
        have += (have.empty() ? "" : ", ") + std::to_string(r.rank);
    }
    throw std::invalid_argument("Option --rank is " + o.rank + ", but " + o.file + " has rank(s) " +
                                have + " only.");
}

void print(const Trace& trace, const TraceStatsOptions& o, const std::string& file,
           std::ostream& out) {
    std::string error;
    const std::optional<CpWindow> window = chooseWindow(trace, criticalPathWindow(o), error);
    if (!window) throw std::invalid_argument(file + ": " + error + ".");
    CriticalPathOptions options;
    for (const std::string& text : o.what_if) {
        WhatIfFactor f;
        if (!parseWhatIf(text, f, error))
            throw std::invalid_argument("Option --what-if: " + error + ".");
        options.what_if.push_back(f);
    }
    const LaunchIndex launches = LaunchIndex::build(trace);
    const CriticalPathReport report = analyseCriticalPath(trace, launches, *window, options);
    if (report.graph.nodes.empty())
        throw std::invalid_argument(file + ": no operator, runtime call or kernel in " +
                                    window->label + " for --view critical-path.");
    if (o.format == "json") {
        out << criticalPathJson(trace, report).dump(2) << '\n';
        return;
    }
    std::vector<table::TableSpec> tables = {criticalPathBoundTable(report),
                                            criticalPathItemTable(report), whatIfTable(report),
                                            criticalPathEventTable(trace, report)};
    if (o.format == "text") {
        out << "critical path of " << window->label << " (" << double(report.step_ns) / 1000
            << " us): " << double(report.path.length_ns) / 1000 << " us, "
            << report.graph.nodes.size() << " nodes, " << report.graph.edges.size() << " edges\n";
        for (const std::string& note : report.graph.notes)
            out << "note: " << note << '\n';
        if (const std::string note = criticalPathLengthNote(report); !note.empty())
            out << "note: " << note << '\n';
        if (report.graph.unlinked_kernels > 0)
            out << "note: " << report.graph.unlinked_kernels
                << " kernel(s) follow neither their launch nor earlier work on their stream "
                   "(a gap over 1.5 ms: an unrecorded dependency)\n";
    }
    if (o.format == "csv") tables.push_back(criticalPathWindowTable(report));
    printTables(tables, o, out);
}

} // namespace

CpWindowChoice criticalPathWindow(const TraceStatsOptions& o) {
    CpWindowChoice choice;
    if (!o.step.empty() && !o.annotation_name.empty())
        throw std::invalid_argument("Options --step and --annotation each choose the window: "
                                    "give one.");
    if (!o.instance.empty() && o.annotation_name.empty())
        throw std::invalid_argument("Option --instance applies to --annotation only.");
    if (!o.step.empty()) choice.step = wholeNumber(o.step, "--step");
    choice.annotation = o.annotation_name;
    if (!o.instance.empty()) choice.instance = wholeNumber(o.instance, "--instance");
    return choice;
}

void criticalPath(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    if (request.input) {
        if (!o.rank.empty())
            throw std::invalid_argument("Option --rank applies to a folder of per-rank traces.");
        return print(request.input->trace(), o, o.file, request.out);
    }
    int count = 0;
    const std::vector<RankTrace> ranks = readRankSpan(chosenSpan(o, count));
    const RankTrace& rank = chosenRank(ranks, o);
    if (o.format == "text")
        request.out << "rank " << rank.rank << " (" << rank.path.string() << ")"
                    << (o.rank.empty() ? "; --rank picks another" : "") << '\n';
    print(rank.trace, o, rank.path.string(), request.out);
}

} // namespace ts::printers
