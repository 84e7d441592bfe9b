#include "report/DistributedReport.h"

#include <limits>

#include <nlohmann/json.hpp>

#include "report/DistributedTables.h"
#include "report/GpuTraceReport.h"
#include "report/MarkdownTable.h"
#include "util/Csv.h"

namespace ts {

namespace {

using json = nlohmann::json;

std::string us(int64_t ns) {
    return microsText(double(ns));
}

table::Column rankColumn() {
    return table::Column{distributed_column::kRank, "Rank", "", table::ColumnKind::Integer};
}

// A rank's rows of a table, the rank (and, for CSV, its worker) first.
table::TableSpec ofRank(table::TableSpec spec, const RankView& r, bool worker) {
    if (worker)
        spec = table::withLeadingColumn(std::move(spec), {"worker", "Worker", ""}, r.worker);
    spec = table::withLeadingColumn(std::move(spec), rankColumn(), std::to_string(r.rank));
    for (std::vector<table::Cell>& row : spec.rows)
        row[0].value = double(r.rank);
    return spec;
}

// Every rank's steps (and, with `average`, its average as step "all").
table::TableSpec allSteps(const DistributedView& v, bool worker, bool average) {
    table::TableSpec all = ofRank(stepTable({}), RankView{}, worker);
    for (const RankView& r : v.ranks) {
        std::vector<DistributedStep> steps = r.steps;
        if (average) steps.push_back(r.average);
        table::appendRows(all, ofRank(stepTable(steps), r, worker));
    }
    return all;
}

table::TableSpec allOps(const DistributedView& v, size_t limit) {
    table::TableSpec all = ofRank(commOpTable({}), RankView{}, true);
    for (const RankView& r : v.ranks)
        table::appendRows(all, ofRank(table::firstRows(commOpTable(r.ops), limit), r, true));
    return all;
}

std::string header(const DistributedView& v) {
    std::string libraries;
    for (const RankView& r : v.ranks)
        if (!r.library.empty() && libraries.find(r.library) == std::string::npos)
            libraries += (libraries.empty() ? "" : ", ") + r.library;
    return "Distributed view: span " + std::to_string(v.span) + " of " +
           std::to_string(v.span_count) + ", " + std::to_string(v.ranks.size()) + " ranks" +
           (libraries.empty() ? "" : " (" + libraries + ")") + "\n";
}

// The view with only the ranks whose full rows are shown.
DistributedView selected(const DistributedView& v, const RankSelection& rows) {
    DistributedView out;
    out.span = v.span;
    out.span_count = v.span_count;
    for (const RankView& r : v.ranks)
        if (rows.ranges.empty() ? v.ranks.size() <= kAllRankRowsUpTo : rows.contains(r.rank))
            out.ranks.push_back(r);
    return out;
}

std::string acrossRanks(const DistributedView& v) {
    std::string out;
    for (const std::string& why : v.left_out)
        out += "left out: " + why + "\n";
    if (v.ranks.size() < 2) return out;
    out += "\nAcross " + std::to_string(v.ranks.size()) + " ranks (each rank's average step):\n";
    out += table::toText(spreadTable(v.spreads));
    if (!v.arrivals.verdict.empty()) {
        out += "\nCollectives: " + std::to_string(v.arrivals.calls) +
               " calls matched on every rank; " + v.arrivals.verdict + ".\n";
        out += table::toText(arrivalTable(v, 5));
    }
    return out;
}

std::string rankSections(const DistributedView& v, size_t limit) {
    std::string out = "\nAverage per step:\n";
    out += table::toText(rankTable(rankRows(v, "all")));
    out += "\nPer step:\n";
    out += table::toText(allSteps(v, false, false));
    for (const RankView& r : v.ranks) {
        out +=
            "\nCommunication operations, rank " + std::to_string(r.rank) + " (" + r.worker + "):\n";
        out += table::toText(table::firstRows(commOpTable(r.ops), limit));
    }
    out += "\nDevices:\n";
    out += table::toText(deviceTable(v));
    return out;
}

std::string hiddenRows(const DistributedView& v, const DistributedView& shown) {
    if (shown.ranks.size() == v.ranks.size()) return "";
    return "\nPer-rank rows: " + std::to_string(shown.ranks.size()) + " of " +
           std::to_string(v.ranks.size()) +
           " ranks shown; choose them with --ranks (e.g. --ranks 0-15 or --ranks " +
           std::to_string(v.ranks.empty() ? 0 : v.ranks.back().rank) + ").\n";
}

} // namespace

bool RankSelection::contains(int64_t rank) const {
    for (const auto& [first, last] : ranges)
        if (rank >= first && rank <= last) return true;
    return false;
}

RankSelection RankSelection::parse(const std::string& text) {
    RankSelection out;
    if (text == "all") {
        out.ranges.emplace_back(std::numeric_limits<int64_t>::min(),
                                std::numeric_limits<int64_t>::max());
        return out;
    }
    size_t at = 0;
    const auto fail = [&] {
        return std::invalid_argument("Option --ranks is '" + text +
                                     "': give ranks and ranges of ranks, like 0,5-7,12, or all.");
    };
    while (at <= text.size()) {
        const size_t comma = std::min(text.find(',', at), text.size());
        const std::string item = text.substr(at, comma - at);
        const size_t dash = item.find('-');
        const auto number = [&](const std::string& digits) {
            if (digits.empty() || digits.size() > 12 ||
                digits.find_first_not_of("0123456789") != std::string::npos)
                throw fail();
            return std::stoll(digits);
        };
        const int64_t first = number(item.substr(0, dash));
        const int64_t last = dash == std::string::npos ? first : number(item.substr(dash + 1));
        if (last < first) throw fail();
        out.ranges.emplace_back(first, last);
        at = comma + 1;
    }
    return out;
}

std::string distributedText(const DistributedView& whole, size_t limit, const RankSelection& rows) {
    std::string out = header(whole) + acrossRanks(whole);
    const DistributedView v = selected(whole, rows);
    out += hiddenRows(whole, v);
    if (!v.ranks.empty()) out += rankSections(v, limit);
    out += "\nImbalance: the busiest rank computes " + percent(whole.computation_imbalance) +
           " more than the mean rank; step times differ by up to " + us(whole.step_time_spread_ns) +
           " us.\n";
    if (whole.stragglers.empty()) out += whole.no_straggler + ".\n";
    for (const Straggler& s : whole.stragglers)
        out += "Straggler: " + s.message + ".\n";
    for (const std::string& note : whole.notes)
        out += "note: " + note + "\n";
    return out;
}

std::string distributedCsv(const DistributedView& whole, size_t limit, const RankSelection& rows) {
    const DistributedView v = selected(whole, rows);
    std::string out =
        table::toDataCsv(allSteps(v, true, true)) + "\n" + table::toDataCsv(allOps(v, limit));
    out +=
        "\n" +
        csvLine({"rank", "worker", "computation_us", "others_computation_us", "excess_us",
                 "step_us", "others_step_us", "others_synchronizing_us", "own_synchronizing_us"}) +
        "\n";
    for (const Straggler& s : whole.stragglers)
        out += csvLine({std::to_string(s.rank), s.worker, us(s.computation_ns),
                        us(s.others_computation_ns), us(s.excessNs()), us(s.step_ns),
                        us(s.others_step_ns), us(s.others_synchronizing_ns),
                        us(s.own_synchronizing_ns)}) +
               "\n";
    return out;
}

namespace {

double usValue(int64_t ns) {
    return double(ns) / 1000;
}

json rankJson(const RankView& r, size_t limit) {
    json devices = json::array();
    for (const RankDevice& d : r.devices)
        devices.push_back({{"id", d.id},
                           {"name", d.name},
                           {"memory_bytes", d.memory_bytes},
                           {"compute_capability", std::to_string(d.compute_major) + "." +
                                                      std::to_string(d.compute_minor)}});
    return {{"rank", r.rank},
            {"rank_source", toString(r.rank_source)},
            {"worker", r.worker},
            {"path", r.path},
            {"node", r.node},
            {"process", r.process},
            {"backend", r.backend},
            {"world_size", r.world_size >= 0 ? json(r.world_size) : json()},
            {"library", r.library},
            {"uses_gpu", r.uses_gpu},
            {"devices", std::move(devices)},
            {"collectives", r.collectives},
            {"outside_steps", r.outside_steps},
            {"average", table::rowsJson(stepTable({r.average}))[0]},
            {"steps", table::rowsJson(stepTable(r.steps))},
            {"operations", table::rowsJson(table::firstRows(commOpTable(r.ops), limit))},
            {"waited_us", usValue(r.waited_ns)},
            {"last_arrivals", r.last_arrivals},
            {"caused_wait_us", usValue(r.caused_wait_ns)},
            {"clock_offset_us", usValue(r.clock_offset_ns)}};
}

} // namespace

json distributedJson(const DistributedView& v, size_t limit, const RankSelection& rows) {
    json ranks = json::array(), stragglers = json::array();
    for (const RankView& r : selected(v, rows).ranks)
        ranks.push_back(rankJson(r, limit));
    for (const Straggler& s : v.stragglers)
        stragglers.push_back({{"rank", s.rank},
                              {"worker", s.worker},
                              {"computation_us", usValue(s.computation_ns)},
                              {"others_computation_us", usValue(s.others_computation_ns)},
                              {"excess_us", usValue(s.excessNs())},
                              {"excess_pct", 100 * s.excessFraction()},
                              {"step_us", usValue(s.step_ns)},
                              {"others_step_us", usValue(s.others_step_ns)},
                              {"others_synchronizing_us", usValue(s.others_synchronizing_ns)},
                              {"own_synchronizing_us", usValue(s.own_synchronizing_ns)},
                              {"message", s.message}});
    return {{"span", v.span},
            {"span_count", v.span_count},
            {"rank_count", v.ranks.size()},
            {"spreads", table::rowsJson(spreadTable(v.spreads))},
            {"arrivals",
             {{"calls", v.arrivals.calls},
              {"median_us", usValue(v.arrivals.median_ns)},
              {"p95_us", usValue(v.arrivals.p95_ns)},
              {"max_us", usValue(v.arrivals.max_ns)},
              {"verdict", v.arrivals.verdict},
              {"waits", table::rowsJson(arrivalTable(v))}}},
            {"left_out", v.left_out},
            {"plugin_compatible", v.plugin_compatible},
            {"computation_imbalance", v.computation_imbalance},
            {"step_time_spread_us", usValue(v.step_time_spread_ns)},
            {"notes", v.notes},
            {"ranks", std::move(ranks)},
            {"stragglers", std::move(stragglers)}};
}

} // namespace ts
