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

// The trace of the rank asked for (--rank), or of the lowest one.
const RankTrace& chosenRank(const std::vector<RankTrace>& ranks, const TraceViewRequest& request) {
    const std::optional<int64_t> asked = request.values.whole("--rank");
    std::string have;
    for (const RankTrace& r : ranks) {
        if (!asked || r.rank == *asked) return r;
        have += (have.empty() ? "" : ", ") + std::to_string(r.rank);
    }
    throw std::invalid_argument("Option --rank is " + std::to_string(*asked) + ", but " +
                                request.options.file + " has rank(s) " + have + " only.");
}

void print(const Trace& trace, const TraceViewRequest& request, const std::string& file) {
    const TraceStatsOptions& o = request.options;
    std::ostream& out = request.out;
    std::string error;
    const std::optional<CpWindow> window =
        chooseWindow(trace, criticalPathWindow(request.values), error);
    if (!window) throw std::invalid_argument(file + ": " + error + ".");
    CriticalPathOptions options;
    for (const std::string& text : request.values.texts("--what-if")) {
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

CpWindowChoice criticalPathWindow(const views::OptionValues& values) {
    CpWindowChoice choice;
    const std::optional<int64_t> step = values.whole("--step");
    const std::optional<std::string> annotation = values.text("--annotation");
    const std::optional<int64_t> instance = values.whole("--instance");
    if (step && annotation)
        throw std::invalid_argument("Options --step and --annotation each choose the window: "
                                    "give one.");
    if (instance && !annotation)
        throw std::invalid_argument("Option --instance applies to --annotation only.");
    choice.step = step.value_or(choice.step);
    choice.annotation = annotation.value_or("");
    choice.instance = instance.value_or(choice.instance);
    return choice;
}

void criticalPath(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    const bool rank_given = request.values.given("--rank");
    if (request.input) {
        if (rank_given)
            throw std::invalid_argument("Option --rank applies to a folder of per-rank traces.");
        return print(request.input->trace(), request, o.file);
    }
    int count = 0;
    const std::vector<RankTrace> ranks = readRankSpan(chosenSpan(request, count));
    const RankTrace& rank = chosenRank(ranks, request);
    if (o.format == "text")
        request.out << "rank " << rank.rank << " (" << rank.path.string() << ")"
                    << (rank_given ? "" : "; --rank picks another") << '\n';
    print(rank.trace, request, rank.path.string());
}

} // namespace ts::printers
