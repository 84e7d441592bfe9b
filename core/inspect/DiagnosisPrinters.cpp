// `trace-stats --view temporal`, `idle`, `launches`, `kernel-types`,
// `annotations`, `kernel-sequences`: Holistic Trace Analysis' diagnoses of
// one trace, or of each rank of a folder.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "analysis/IdleTime.h"
#include "analysis/LaunchStats.h"
#include "analysis/RankSummaries.h"
#include "inspect/ReadProgressLine.h"
#include "inspect/TraceViewPrinters.h"
#include "report/AnnotationTables.h"
#include "report/CounterTables.h"
#include "report/IdleTables.h"
#include "report/KernelSequenceTables.h"
#include "report/KernelTypeTables.h"
#include "report/LaunchTables.h"
#include "trace/RankFolder.h"
#include "trace/RankOrder.h"

namespace ts::printers {
namespace {

constexpr const char* kNoLaunches =
    ": no device work is linked to the runtime call that launched it (the trace has no "
    "cuda_runtime events, or no correlation ids; record with ProfilerActivity.CPU and CUDA) for ";

// The ranks below the highest that `sorted` lacks (at most 64 named).
std::vector<int64_t> missingRanks(const std::vector<int64_t>& sorted) {
    std::vector<int64_t> missing;
    int64_t next = 0;
    for (int64_t rank : sorted) {
        for (; next < rank && missing.size() < 64; ++next)
            missing.push_back(next);
        next = std::max(next, rank + 1);
    }
    return missing;
}

void noteMissingRanks(const std::vector<int64_t>& sorted, const TraceStatsOptions& o,
                      std::ostream& out) {
    if (o.format == "text")
        for (int64_t missing : missingRanks(sorted))
            out << "note: rank " << missing << " has no trace in " << o.file
                << ": its figures are missing below\n";
}

std::string noDeviceWorkText(const std::string& file, const std::string& view) {
    return file + ": no kernels, copies or sets on a GPU stream for --view " + view +
           " (a torch.profiler trace recorded with ProfilerActivity.CUDA has them).";
}

// The notes on what a rank's device activity left out, in text.
void noteActivity(const ActivityFacts& facts, int64_t rank, size_t ranks,
                  const TraceStatsOptions& o, std::ostream& out) {
    if (o.format != "text") return;
    for (const std::string& note : activityNotes(facts))
        out << "note: " << (ranks > 1 ? "rank " + std::to_string(rank) + ": " : "") << note << '\n';
}

// "note: <file>: <why> (left out)" for each rank file that could not be
// read; the error naming the first when none could.
void noteUnreadable(const std::vector<std::string>& unreadable, size_t read,
                    const TraceStatsOptions& o, std::ostream& out) {
    if (read == 0)
        throw std::invalid_argument(
            "No trace of " + o.file + " could be read for --view " + o.view +
            (unreadable.empty() ? std::string(": it has none") : ": " + unreadable.front()));
    if (o.format == "text")
        for (const std::string& why : unreadable)
            out << "note: " << why << " (left out)\n";
}

// Every rank's analysis in rank order, and the file each came from (for a
// message on what it lacks).
template <typename Result> struct RankResults {
    std::vector<Result> ranks;
    std::vector<std::string> files;
};

// A rank of a folder as analysed on the pool: its trace is dropped once
// analysed, so that 1,024 ranks hold their results and the traces being
// read, never the whole folder.
template <typename Result> struct AnalysedRank {
    int64_t rank = -1; // rank, rank_source, path: what orderRanks sorts by
    RankSource rank_source = RankSource::Order;
    std::filesystem::path path;
    ActivityFacts facts;
    std::optional<Result> result; // none: the trace has no device work
    std::string unreadable;       // why the file could not be read, "" read
};

// Where a result holds its rank (orderRanks may number guessed ranks again).
template <typename Result> void setRank(Result& result, int64_t rank) {
    result.rank = rank;
}

template <typename Result>
RankResults<Result> ranksInOrder(std::vector<AnalysedRank<Result>> read, const TraceStatsOptions& o,
                                 std::ostream& out) {
    std::vector<AnalysedRank<Result>> ranks;
    std::vector<std::string> unreadable;
    for (AnalysedRank<Result>& a : read)
        if (a.unreadable.empty())
            ranks.push_back(std::move(a));
        else
            unreadable.push_back(std::move(a.unreadable));
    noteUnreadable(unreadable, ranks.size(), o, out);
    orderRanksOrThrow(ranks);
    std::vector<int64_t> numbers;
    for (const AnalysedRank<Result>& a : ranks)
        numbers.push_back(a.rank);
    noteMissingRanks(numbers, o, out);
    RankResults<Result> results;
    for (AnalysedRank<Result>& a : ranks) {
        const std::string file = a.path.string() + " (rank " + std::to_string(a.rank) + ")";
        if (!a.result) throw std::invalid_argument(noDeviceWorkText(file, o.view));
        noteActivity(a.facts, a.rank, ranks.size(), o, out);
        setRank(*a.result, a.rank);
        results.ranks.push_back(std::move(*a.result));
        results.files.push_back(file);
    }
    return results;
}

// The diagnosis of one trace, or of every rank of a folder's span: ranks
// read and analysed in parallel (as many at once as the pool has threads),
// a file that cannot be read named and left out. Throws naming a rank
// without device work.
template <typename Analyse> auto analyseRanks(TraceViewRequest& request, Analyse analyse) {
    using Result = decltype(analyse(std::declval<const Trace&>(), DeviceActivities{}));
    const TraceStatsOptions& o = request.options;
    if (request.input) {
        const Trace& trace = request.input->trace();
        const DeviceActivities activity = collectDeviceActivity(trace);
        if (activity.empty()) throw std::invalid_argument(noDeviceWorkText(o.file, o.view));
        noteActivity(activityFacts(activity), activity.rank, 1, o, request.out);
        return RankResults<Result>{{analyse(trace, activity)}, {o.file}};
    }
    int count = 0;
    const RankSpan span = chosenSpan(request, count);
    std::vector<AnalysedRank<Result>> read(span.files.size());
    forEachRankFile(
        span.files.size(),
        [&](size_t i) {
            AnalysedRank<Result>& a = read[i];
            RankTrace rank;
            try {
                rank = readRankFile(span.files[i], i);
            } catch (const Cancelled&) {
                throw;
            } catch (const std::exception& e) {
                a.unreadable = e.what();
                return;
            }
            a.rank = rank.rank;
            a.rank_source = rank.rank_source;
            a.path = rank.path;
            DeviceActivities activity = collectDeviceActivity(rank.trace);
            activity.rank = rank.rank;
            if (activity.empty()) return;
            a.facts = activityFacts(activity);
            a.result = analyse(rank.trace, activity);
        },
        rankFilesProgressLine(o.file, request.err, o.progress));
    return ranksInOrder(std::move(read), o, request.out);
}

// A folder's temporal breakdowns, from its ranks' summaries
// (analysis/RankSummaries.h): read in parallel and kept, so that a
// 1,024-rank folder is read once, never whole in memory, and reopened from
// its summaries. A trace that cannot be read is a note, not the end.
std::vector<TemporalBreakdown> folderTemporal(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    int count = 0;
    RankSummarySettings settings;
    settings.cache.enabled = o.cache;
    SpanSummaries read = summarizeSpan(chosenSpan(request, count), settings,
                                       rankFilesProgressLine(o.file, request.err, o.progress));
    std::sort(read.ranks.begin(), read.ranks.end(),
              [](const RankTraceSummary& a, const RankTraceSummary& b) { return a.rank < b.rank; });
    noteUnreadable(read.unreadable, read.ranks.size(), o, request.out);
    std::vector<int64_t> numbers;
    for (const RankTraceSummary& s : read.ranks)
        numbers.push_back(s.rank);
    noteMissingRanks(numbers, o, request.out);
    std::vector<TemporalBreakdown> out;
    for (const RankTraceSummary& s : read.ranks) {
        if (!s.activity.any)
            throw std::invalid_argument(
                noDeviceWorkText(s.path + " (rank " + std::to_string(s.rank) + ")", o.view));
        noteActivity(s.activity, s.rank, read.ranks.size(), o, request.out);
        out.push_back(s.temporal);
        out.back().rank = s.rank;
    }
    return out;
}

// Launch statistics with the names they print (their trace is gone by then).
struct RankLaunches {
    LaunchStats stats;
    LaunchNames names;
};
template <> void setRank(RankLaunches& result, int64_t rank) {
    result.stats.rank = rank;
}

} // namespace

void printTables(const std::vector<table::TableSpec>& tables, const TraceStatsOptions& o,
                 std::ostream& out) {
    for (size_t i = 0; i < tables.size(); ++i) {
        const table::TableSpec shown = table::firstRows(tables[i], o.limit);
        if (o.format == "csv")
            out << (i ? "\n" : "") << table::toDataCsv(shown);
        else
            out << '\n' << shown.title << ":\n" << table::toText(table::withTextCut(shown, 80));
    }
}

void temporal(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    std::vector<TemporalBreakdown> ranks;
    if (request.input)
        ranks = analyseRanks(request, [](const Trace&, const DeviceActivities& activity) {
                    return temporalBreakdown(activity);
                }).ranks;
    else
        ranks = folderTemporal(request);
    if (o.format == "json") {
        request.out << temporalJson(ranks).dump(2) << '\n';
        return;
    }
    printTables({temporalTable(ranks)}, o, request.out);
}

void idle(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    IdleOptions options;
    options.kernel_wait_ns =
        request.values.nanos("--kernel-wait-us").value_or(options.kernel_wait_ns);
    const std::vector<IdleBreakdown> ranks =
        analyseRanks(request, [&](const Trace& trace, const DeviceActivities& activity) {
            return idleBreakdown(trace, activity, options);
        }).ranks;
    if (o.format == "json") {
        request.out << idleJson(ranks).dump(2) << '\n';
        return;
    }
    if (o.format == "text")
        request.out << "kernel wait: gaps under " << double(options.kernel_wait_ns) / 1000
                    << " us before work launched in time (--kernel-wait-us)\n";
    printTables({idleTable(ranks), idleIntervalTable(ranks)}, o, request.out);
}

void launches(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    LaunchStatOptions options;
    options.runtime_cutoff_ns =
        request.values.nanos("--runtime-cutoff-us").value_or(options.runtime_cutoff_ns);
    options.launch_delay_cutoff_ns =
        request.values.nanos("--launch-delay-cutoff-us").value_or(options.launch_delay_cutoff_ns);
    RankResults<RankLaunches> analysed =
        analyseRanks(request, [&](const Trace& trace, const DeviceActivities& activity) {
            RankLaunches out{launchStats(trace, activity, options), {}};
            out.names = launchNames(trace, out.stats);
            return out;
        });
    std::vector<LaunchStats> ranks;
    std::vector<LaunchNames> names;
    for (size_t i = 0; i < analysed.ranks.size(); ++i) {
        if (analysed.ranks[i].stats.launches.empty())
            throw std::invalid_argument(analysed.files[i] + kNoLaunches + "--view launches.");
        ranks.push_back(std::move(analysed.ranks[i].stats));
        names.push_back(std::move(analysed.ranks[i].names));
    }
    if (o.format == "json") {
        request.out << launchesJson(ranks, names, o.limit).dump(2) << '\n';
        return;
    }
    // Text lists the 20 longest-delayed outliers unless --limit says otherwise.
    const size_t listed = o.format == "text" && o.limit == 0 ? 20 : o.limit;
    printTables({launchSummaryTable(ranks), launchOutlierTable(ranks),
                 outlierLaunchTable(ranks, names, listed)},
                o, request.out);
}

void kernelTypes(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    const std::vector<KernelTypeBreakdown> ranks =
        analyseRanks(request, [](const Trace& trace, const DeviceActivities& activity) {
            return kernelTypeBreakdown(trace, activity);
        }).ranks;
    if (o.format == "json") {
        request.out << kernelTypesJson(ranks).dump(2) << '\n';
        return;
    }
    std::vector<table::TableSpec> tables{kernelTypeTable(ranks), commCompOverlapTable(ranks)};
    if (ranks.size() > 1) tables.push_back(kernelTypeSpreadTable(ranks));
    tables.push_back(kernelsByTypeTable(ranks));
    printTables(tables, o, request.out);
}

void queue(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    QueueLengthOptions options;
    options.max_queue_length =
        int32_t(request.values.whole("--max-queue-length").value_or(options.max_queue_length));
    const RankResults<QueueLength> analysed =
        analyseRanks(request, [&](const Trace& trace, const DeviceActivities& activity) {
            return queueLength(trace, activity, options);
        });
    const std::vector<QueueLength>& ranks = analysed.ranks;
    for (size_t i = 0; i < ranks.size(); ++i)
        if (ranks[i].streams.empty())
            throw std::invalid_argument(analysed.files[i] + kNoLaunches + "--view queue.");
    if (o.format == "json") {
        request.out << queueLengthJson(ranks).dump(2) << '\n';
        return;
    }
    if (o.format == "text")
        request.out << "queue: work launched but not started; full from "
                    << options.max_queue_length << " (--max-queue-length)\n";
    printTables({queueLengthTable(ranks)}, o, request.out);
}

void memoryBandwidth(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    const RankResults<MemoryBandwidth> analysed =
        analyseRanks(request, [](const Trace& trace, const DeviceActivities& activity) {
            return memoryBandwidth(trace, activity);
        });
    const std::vector<MemoryBandwidth>& ranks = analysed.ranks;
    size_t without = 0;
    for (size_t i = 0; i < ranks.size(); ++i) {
        without += ranks[i].without_bandwidth;
        if (ranks[i].kinds.empty())
            throw std::invalid_argument(
                analysed.files[i] +
                (ranks[i].without_bandwidth > 0
                     ? ": its copies and sets have neither a bandwidth nor bytes"
                     : ": no memcpy or memset on a GPU stream") +
                " for --view memory-bw.");
    }
    if (o.format == "json") {
        request.out << memoryBandwidthJson(ranks).dump(2) << '\n';
        return;
    }
    if (o.format == "text" && without > 0)
        request.out << "note: " << without
                    << " copies or sets have neither a bandwidth nor bytes in the trace and are "
                       "left out\n";
    printTables({memoryBandwidthTable(ranks)}, o, request.out);
}

void annotations(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    AnnotationOptions options;
    if (request.values.text("--annotations") == "cpu") options.side = AnnotationSide::Cpu;
    const RankResults<AnnotationBreakdown> analysed =
        analyseRanks(request, [&](const Trace& trace, const DeviceActivities& activity) {
            AnnotationBreakdown b = userAnnotations(trace, activity, options);
            b.label = {}; // a word per kernel, for the GUI's links; printed nowhere
            return b;
        });
    const std::vector<AnnotationBreakdown>& ranks = analysed.ranks;
    for (size_t i = 0; i < ranks.size(); ++i)
        if (ranks[i].empty())
            throw std::invalid_argument(
                analysed.files[i] + ": no " +
                (options.side == AnnotationSide::Gpu
                     ? "gpu_user_annotation events (record_function ranges as the GPU ran them; "
                       "try --annotations cpu)"
                     : "user_annotation events (record_function ranges)") +
                " for --view annotations.");
    if (o.format == "json") {
        request.out << annotationsJson(ranks).dump(2) << '\n';
        return;
    }
    printTables({annotationTable(ranks), annotatedKernelTable(ranks)}, o, request.out);
}

void kernelSequences(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    SequenceOptions options;
    options.operator_text = request.values.text("--operator").value_or("");
    options.min_pattern_len =
        size_t(request.values.whole("--min-pattern-len").value_or(options.min_pattern_len));
    const RankResults<KernelSequences> analysed =
        analyseRanks(request, [&](const Trace& trace, const DeviceActivities& activity) {
            return kernelSequences(trace, activity, options);
        });
    const std::vector<KernelSequences>& ranks = analysed.ranks;
    const std::string calls = options.operator_text.empty()
                                  ? std::string("operator call")
                                  : "call whose name contains '" + options.operator_text + "'";
    for (size_t i = 0; i < ranks.size(); ++i) {
        if (ranks[i].calls == 0)
            throw std::invalid_argument(analysed.files[i] + ": no " + calls +
                                        " launched GPU work, for --view kernel-sequences.");
        if (ranks[i].empty())
            throw std::invalid_argument(
                analysed.files[i] + ": no " + calls + " launched " +
                std::to_string(options.min_pattern_len) +
                " or more kernels, for --view kernel-sequences (--min-pattern-len).");
    }
    if (o.format == "json") {
        request.out << kernelSequencesJson(ranks).dump(2) << '\n';
        return;
    }
    if (o.format == "text")
        request.out << "sequences of " << options.min_pattern_len << " or more kernels launched by "
                    << (options.operator_text.empty()
                            ? std::string("each outermost operator")
                            : "calls containing '" + options.operator_text + "'")
                    << " (--operator, --min-pattern-len)\n";
    printTables({kernelSequenceTable(ranks), sequenceKernelTable(ranks)}, o, request.out);
}

} // namespace ts::printers
