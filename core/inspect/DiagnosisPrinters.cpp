// `trace-stats --view temporal`, `idle`, `launches`, `kernel-types`,
// `annotations`, `kernel-sequences`: Holistic Trace Analysis' diagnoses of
// one trace, or of each rank of a folder.
#include <algorithm>
#include <stdexcept>

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

// The traces a diagnosis reads: the one trace, or every rank's trace of one
// span of a folder (or of several files), each analysed on its own.
class DiagnosisInput {
public:
    explicit DiagnosisInput(TraceViewRequest& request) : options_(request.options) {
        if (request.input) {
            traces_.push_back(&request.input->trace());
            ranks_.push_back(-1); // the trace's own (distributedInfo), 0 without
            return;
        }
        int count = 0;
        folder_ = readRankSpan(chosenSpan(request, count));
        for (const RankTrace& rank : folder_) {
            traces_.push_back(&rank.trace);
            ranks_.push_back(rank.rank);
        }
    }

    size_t size() const { return traces_.size(); }
    const Trace& trace(size_t i) const { return *traces_[i]; }
    const std::vector<const Trace*>& traces() const { return traces_; }

    // A rank's device activity; throws naming the file (and rank) when it
    // has none.
    DeviceActivities activity(size_t i) const {
        DeviceActivities activity = collectDeviceActivity(*traces_[i]);
        if (ranks_[i] >= 0) activity.rank = ranks_[i];
        if (activity.empty())
            throw std::invalid_argument(noDeviceWorkText(fileOf(i), options_.view));
        return activity;
    }

    // The folder's ranks, sorted (as readRankSpan gives them).
    std::vector<int64_t> folderRanks() const {
        std::vector<int64_t> ranks;
        for (const RankTrace& r : folder_)
            ranks.push_back(r.rank);
        return ranks;
    }

    // The file (and rank) of a trace, for a message on what it lacks.
    std::string fileOf(size_t i) const {
        if (folder_.empty()) return options_.file;
        return folder_[i].path.string() + " (rank " + std::to_string(folder_[i].rank) + ")";
    }

private:
    const TraceStatsOptions& options_;
    std::vector<RankTrace> folder_;
    std::vector<const Trace*> traces_;
    std::vector<int64_t> ranks_;
};

// Every rank's analysis of its activity, with the notes on what each left out.
template <typename Analyse>
auto analyseRanks(const DiagnosisInput& input, const TraceStatsOptions& o, std::ostream& out,
                  Analyse analyse) {
    std::vector<decltype(analyse(input.trace(0), DeviceActivities{}))> ranks;
    noteMissingRanks(input.folderRanks(), o, out);
    for (size_t i = 0; i < input.size(); ++i) {
        const DeviceActivities activity = input.activity(i);
        noteActivity(activityFacts(activity), activity.rank, input.size(), o, out);
        ranks.push_back(analyse(input.trace(i), activity));
    }
    return ranks;
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
    if (read.ranks.empty())
        throw std::invalid_argument("No trace of " + o.file + " could be read for --view " +
                                    o.view + ": " + read.unreadable.front());
    std::sort(read.ranks.begin(), read.ranks.end(),
              [](const RankTraceSummary& a, const RankTraceSummary& b) { return a.rank < b.rank; });
    std::vector<int64_t> numbers;
    for (const RankTraceSummary& s : read.ranks)
        numbers.push_back(s.rank);
    if (o.format == "text")
        for (const std::string& why : read.unreadable)
            request.out << "note: " << why << " (left out)\n";
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
        ranks = analyseRanks(DiagnosisInput(request), o, request.out,
                             [](const Trace&, const DeviceActivities& activity) {
                                 return temporalBreakdown(activity);
                             });
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
    const DiagnosisInput input(request);
    const std::vector<IdleBreakdown> ranks = analyseRanks(
        input, o, request.out, [&](const Trace& trace, const DeviceActivities& activity) {
            return idleBreakdown(trace, activity, options);
        });
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
    const DiagnosisInput input(request);
    const std::vector<LaunchStats> ranks = analyseRanks(
        input, o, request.out, [&](const Trace& trace, const DeviceActivities& activity) {
            return launchStats(trace, activity, options);
        });
    for (size_t i = 0; i < ranks.size(); ++i)
        if (ranks[i].launches.empty())
            throw std::invalid_argument(input.fileOf(i) + kNoLaunches + "--view launches.");
    if (o.format == "json") {
        request.out << launchesJson(input.traces(), ranks, o.limit).dump(2) << '\n';
        return;
    }
    // Text lists the 20 longest-delayed outliers unless --limit says otherwise.
    const size_t listed = o.format == "text" && o.limit == 0 ? 20 : o.limit;
    printTables({launchSummaryTable(ranks), launchOutlierTable(ranks),
                 outlierLaunchTable(input.traces(), ranks, listed)},
                o, request.out);
}

void kernelTypes(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    const DiagnosisInput input(request);
    const std::vector<KernelTypeBreakdown> ranks = analyseRanks(
        input, o, request.out, [](const Trace& trace, const DeviceActivities& activity) {
            return kernelTypeBreakdown(trace, activity);
        });
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
    const DiagnosisInput input(request);
    const std::vector<QueueLength> ranks = analyseRanks(
        input, o, request.out, [&](const Trace& trace, const DeviceActivities& activity) {
            return queueLength(trace, activity, options);
        });
    for (size_t i = 0; i < ranks.size(); ++i)
        if (ranks[i].streams.empty())
            throw std::invalid_argument(input.fileOf(i) + kNoLaunches + "--view queue.");
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
    const DiagnosisInput input(request);
    size_t without = 0;
    const std::vector<MemoryBandwidth> ranks = analyseRanks(
        input, o, request.out, [&](const Trace& trace, const DeviceActivities& activity) {
            MemoryBandwidth bw = memoryBandwidth(trace, activity);
            without += bw.without_bandwidth;
            return bw;
        });
    for (size_t i = 0; i < ranks.size(); ++i)
        if (ranks[i].kinds.empty())
            throw std::invalid_argument(
                input.fileOf(i) +
                (ranks[i].without_bandwidth > 0
                     ? ": its copies and sets have neither a bandwidth nor bytes"
                     : ": no memcpy or memset on a GPU stream") +
                " for --view memory-bw.");
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
    const DiagnosisInput input(request);
    const std::vector<AnnotationBreakdown> ranks = analyseRanks(
        input, o, request.out, [&](const Trace& trace, const DeviceActivities& activity) {
            return userAnnotations(trace, activity, options);
        });
    for (size_t i = 0; i < ranks.size(); ++i)
        if (ranks[i].empty())
            throw std::invalid_argument(
                input.fileOf(i) + ": no " +
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
    const DiagnosisInput input(request);
    const std::vector<KernelSequences> ranks = analyseRanks(
        input, o, request.out, [&](const Trace& trace, const DeviceActivities& activity) {
            return kernelSequences(trace, activity, options);
        });
    const std::string calls = options.operator_text.empty()
                                  ? std::string("operator call")
                                  : "call whose name contains '" + options.operator_text + "'";
    for (size_t i = 0; i < ranks.size(); ++i) {
        if (ranks[i].calls == 0)
            throw std::invalid_argument(input.fileOf(i) + ": no " + calls +
                                        " launched GPU work, for --view kernel-sequences.");
        if (ranks[i].empty())
            throw std::invalid_argument(
                input.fileOf(i) + ": no " + calls + " launched " +
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
