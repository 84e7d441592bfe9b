// `trace-stats --view temporal`, `idle`, `launches`, `kernel-types`: Holistic
// Trace Analysis' diagnoses of one trace, or of each rank of a folder.
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "analysis/IdleTime.h"
#include "analysis/LaunchStats.h"
#include "inspect/TraceViewPrinters.h"
#include "report/CounterTables.h"
#include "report/IdleTables.h"
#include "report/KernelTypeTables.h"
#include "report/LaunchTables.h"
#include "trace/RankFolder.h"

namespace ts::printers {
namespace {

// A threshold in microseconds, as ns: `fallback` when not given.
int64_t thresholdNs(const std::string& text, const char* option, int64_t fallback,
                    const char* hta_default) {
    if (text.empty()) return fallback;
    return microsOption(text, option, 0, 1e9,
                        std::string("microseconds, 0 or more (HTA's default: ") + hta_default +
                            ")");
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
        folder_ = readRankSpan(chosenSpan(options_, count));
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
            throw std::invalid_argument(fileOf(i) +
                                        ": no kernels, copies or sets on a GPU stream for "
                                        "--view " +
                                        options_.view +
                                        " (a torch.profiler trace recorded with "
                                        "ProfilerActivity.CUDA has them).");
        return activity;
    }

private:
    std::string fileOf(size_t i) const {
        if (folder_.empty()) return options_.file;
        return folder_[i].path.string() + " (rank " + std::to_string(folder_[i].rank) + ")";
    }

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
    for (size_t i = 0; i < input.size(); ++i) {
        const DeviceActivities activity = input.activity(i);
        if (o.format == "text")
            for (const std::string& note : activityNotes(activity))
                out << "note: "
                    << (input.size() > 1 ? "rank " + std::to_string(activity.rank) + ": " : "")
                    << note << '\n';
        ranks.push_back(analyse(input.trace(i), activity));
    }
    return ranks;
}

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

} // namespace

void temporal(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    const DiagnosisInput input(request);
    const std::vector<TemporalBreakdown> ranks =
        analyseRanks(input, o, request.out, [](const Trace&, const DeviceActivities& activity) {
            return temporalBreakdown(activity);
        });
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
        thresholdNs(o.kernel_wait_us, "--kernel-wait-us", options.kernel_wait_ns, "30");
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
        thresholdNs(o.runtime_cutoff_us, "--runtime-cutoff-us", options.runtime_cutoff_ns, "50");
    options.launch_delay_cutoff_ns =
        thresholdNs(o.launch_delay_cutoff_us, "--launch-delay-cutoff-us",
                    options.launch_delay_cutoff_ns, "100");
    const DiagnosisInput input(request);
    const std::vector<LaunchStats> ranks = analyseRanks(
        input, o, request.out, [&](const Trace& trace, const DeviceActivities& activity) {
            return launchStats(trace, activity, options);
        });
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
    printTables({kernelTypeTable(ranks), kernelsByTypeTable(ranks)}, o, request.out);
}

void queue(TraceViewRequest& request) {
    const TraceStatsOptions& o = request.options;
    QueueLengthOptions options;
    if (!o.max_queue_length.empty()) {
        char* end = nullptr;
        const long value = std::strtol(o.max_queue_length.c_str(), &end, 10);
        if (*end != '\0' || value < 1 || value > 1000000)
            throw std::invalid_argument("Option --max-queue-length is '" + o.max_queue_length +
                                        "'; expected a whole number from 1 to 1000000 (HTA's "
                                        "default: 1024).");
        options.max_queue_length = int32_t(value);
    }
    const DiagnosisInput input(request);
    const std::vector<QueueLength> ranks = analyseRanks(
        input, o, request.out, [&](const Trace& trace, const DeviceActivities& activity) {
            return queueLength(trace, activity, options);
        });
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

} // namespace ts::printers
