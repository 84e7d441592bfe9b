#include "inspect/MemoryStatsCommand.h"

#include <nlohmann/json.hpp>

#include "inspect/ExitCodes.h"
#include "report/SnapshotTables.h"
#include "snapshot/SnapshotReader.h"
#include "sources/SourceRegistry.h"

namespace ts {
namespace {

void print(const std::vector<table::TableSpec>& tables, const MemoryStatsOptions& o,
           std::ostream& out) {
    for (size_t i = 0; i < tables.size(); ++i) {
        const table::TableSpec shown = table::firstRows(tables[i], o.limit);
        if (o.format == "csv")
            out << (i ? "\n" : "") << table::toDataCsv(shown);
        else if (o.format == "json")
            out << table::rowsJson(shown).dump(2) << '\n';
        else
            out << (i ? "\n" : "") << shown.title << ":\n"
                << table::toText(table::withTextCut(shown, 100));
    }
}

void checkOptions(const MemoryStatsOptions& o) {
    (void)aliveGroupingFrom(o.group);
    for (const char* f : {"text", "csv", "json"})
        if (o.format == f) return;
    throw std::invalid_argument("Option --format is '" + o.format +
                                "'; expected text, csv or json.");
}

std::vector<int> devicesOf(const MemorySnapshot& s, const MemoryStatsOptions& o) {
    if (o.device >= 0) {
        if (o.device >= s.devices())
            throw std::invalid_argument("Option --device is " + std::to_string(o.device) + "; " +
                                        o.file + " has " + std::to_string(s.devices()) +
                                        " device(s), numbered from 0.");
        return {o.device};
    }
    std::vector<int> all;
    for (int d = 0; d < s.devices(); ++d)
        all.push_back(d);
    return all;
}

SnapshotFilter filterOf(const MemoryStatsOptions& o) {
    return parseSnapshotFilter({o.min_size, o.frame, o.entries}, "Option --min-size",
                               "Option --entries");
}

void needHistory(const MemorySnapshot& s, const MemoryStatsOptions& o) {
    if (!s.has_device_traces)
        throw std::invalid_argument(o.file + ": --view " + o.view +
                                    " needs the allocation history. " + noHistoryHint());
}

std::vector<table::TableSpec> tablesOf(const MemorySnapshot& s, const MemoryStatsOptions& o) {
    if (o.view == "summary") return {snapshotSummaryTable(s)};
    if (o.view == "segments") return {snapshotSegmentTable(s)};
    if (o.view == "dump") {
        std::vector<table::TableSpec> tables;
        for (int d : devicesOf(s, o))
            tables.push_back(snapshotDumpTable(s, d));
        return tables;
    }
    std::vector<table::TableSpec> tables;
    const SnapshotFilter filter = filterOf(o);
    if (!filter.empty()) needHistory(s, o);
    if (o.view == "peak" || o.view == "flame") {
        for (int d : devicesOf(s, o)) {
            const int64_t entry = o.entry >= 0 ? o.entry : snapshotPeakEntry(s, d, filter);
            tables.push_back(o.view == "peak" ? snapshotAliveTable(s, d, entry, filter,
                                                                   aliveGroupingFrom(o.group))
                                              : snapshotFlameTable(s, d, entry, filter));
        }
        return tables;
    }
    needHistory(s, o);
    if (o.view == "state") {
        for (int d : devicesOf(s, o))
            if (size_t(d) < s.traceDevices())
                tables.push_back(snapshotStateTable(
                    s, d, o.entry >= 0 ? o.entry : summarizeDevice(s, d).peak_entry));
        return tables;
    }
    if (o.view == "timeline") {
        for (int d : devicesOf(s, o))
            if (size_t(d) < s.traceDevices())
                tables.push_back(snapshotTimelineTable(s, d, o.limit ? o.limit : 200, filter));
        return tables;
    }
    if (o.view == "oom") return {snapshotOomTable(s)};
    throw std::invalid_argument(
        "Option --view is '" + o.view +
        "'; expected summary, peak, flame, dump, segments, timeline, oom or state.");
}

// A file of another kind (a trace, a memory timeline) is named with the
// command that reads it; a pickle that is no snapshot is the reader's to say.
MemorySnapshot read(const std::string& file, const char* command) {
    sources::requireKind(sources::recognise(file), {views::Input::Snapshot}, command);
    return readMemorySnapshot(file);
}

} // namespace

int runMemoryStats(const MemoryStatsOptions& o, std::ostream& out, std::ostream& err) {
    try {
        checkOptions(o);
        const MemorySnapshot s = read(o.file, "memory-stats");
        if (o.format == "json" && o.view == "summary") {
            out << snapshotJson(s, o.limit ? o.limit : 10).dump(2) << '\n';
            return exit_code::kOk;
        }
        MemoryStatsOptions shown = o;
        if (o.view == "timeline") shown.limit = 0; // the points are the limit
        print(tablesOf(s, o), shown, out);
        if (!s.has_device_traces && o.format == "text") out << '\n' << noHistoryHint() << '\n';
        return exit_code::kOk;
    } catch (const std::exception& e) {
        err << "memory-stats: " << e.what() << '\n';
        return exit_code::kBadInput;
    }
}

int runMemoryDiff(const MemoryStatsOptions& o, std::ostream& out, std::ostream& err) {
    try {
        checkOptions(o);
        const MemorySnapshot a = read(o.file, "memory-diff"), b = read(o.other, "memory-diff");
        print(snapshotDiffTables(a, b), o, out);
        return exit_code::kOk;
    } catch (const std::exception& e) {
        err << "memory-diff: " << e.what() << '\n';
        return exit_code::kBadInput;
    }
}

} // namespace ts
