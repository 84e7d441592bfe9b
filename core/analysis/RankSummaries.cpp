#include "analysis/RankSummaries.h"

#include <atomic>
#include <map>
#include <mutex>
#include <optional>

#include "analysis/OverviewCacheFormat.h"
#include "analysis/RankSummaryFile.h"
#include "trace/TraceKey.h"
#include "util/AtomicFile.h"
#include "util/ThreadPool.h"

namespace ts {

namespace fs = std::filesystem;

namespace {

RankSummaryStamp stampFor(const TraceKey& key, const GpuAnalysisOptions& options) {
    RankSummaryStamp stamp;
    stamp.trace_size = key.size;
    stamp.fingerprint[0] = key.fingerprint[0];
    stamp.fingerprint[1] = key.fingerprint[1];
    stamp.plugin_compatible = options.plugin_compatible;
    stamp.build = analysisSourceHash();
    return stamp;
}

// The summary's identity as this span names it: its path and file name
// here, not where it was written; a rank from the worker name or the
// position is taken again.
void placeIn(RankTraceSummary& s, const RankFile& file, size_t position) {
    s.worker = file.worker;
    s.span = file.span;
    s.path = file.path.string();
    if (s.rank_source == RankSource::DistributedInfo) return;
    s.rank = rankFromWorkerName(file.worker);
    s.rank_source = RankSource::WorkerName;
    if (s.rank >= 0) return;
    s.rank = int64_t(position);
    s.rank_source = RankSource::Order;
}

struct Outcome {
    std::optional<RankTraceSummary> summary;
    std::optional<RankTrace> trace;
    bool from_file = false;
    std::string unreadable, note;
};

// A summary file's content when it was made of this trace (`expected`),
// with these options, by this build; else nullopt and why.
std::optional<RankTraceSummary> usableSummary(const fs::path& path,
                                              const RankSummaryStamp* expected,
                                              const GpuAnalysisOptions& options, std::string& why) {
    const std::optional<std::string> bytes = readWholeFile(path);
    if (!bytes) {
        why = "no summary";
        return std::nullopt;
    }
    std::optional<RankSummaryRead> read = readRankSummary(*bytes, &why);
    if (!read) return std::nullopt;
    if (read->stamp.plugin_compatible != options.plugin_compatible)
        why = read->stamp.plugin_compatible ? "made with --plugin-compatible"
                                            : "made without --plugin-compatible";
    else if (expected && !read->stamp.sameTrace(*expected))
        why = "made of another version of the trace";
    else if (expected && read->stamp.build != expected->build)
        why = "made by another build of Trainscope";
    else
        return std::move(read->summary);
    return std::nullopt;
}

Outcome fromSummaryOnly(const RankFile& file, const GpuAnalysisOptions& options) {
    Outcome out;
    const fs::path beside = summaryBeside(file.path);
    std::string why;
    out.summary = usableSummary(beside, nullptr, options, why);
    if (out.summary) {
        out.from_file = true;
        return out;
    }
    out.unreadable = file.path.string() + ": no such trace, and its summary " + beside.string() +
                     (why == "no summary" ? " cannot be read" : " is " + why) + ".";
    return out;
}

Outcome summarizeFile(const RankFile& file, size_t position, const RankSummarySettings& settings,
                      bool keep_trace) {
    std::error_code ec;
    if (!fs::exists(file.path, ec)) return fromSummaryOnly(file, settings.options);
    Outcome out;
    const std::optional<TraceKey> key = traceKeyOf(file.path);
    const fs::path cached = traceCacheFileFor(file.path, settings.cache, kRankSummaryFileExtension);
    if (key && !keep_trace) { // keeping the trace means reading it
        const RankSummaryStamp stamp = stampFor(*key, settings.options);
        std::string why;
        for (const fs::path& candidate : {summaryBeside(file.path), cached}) {
            if (candidate.empty()) continue;
            out.summary = usableSummary(candidate, &stamp, settings.options, why);
            if (out.summary) {
                out.from_file = true;
                return out;
            }
            if (why != "no summary")
                out.note = "summary " + candidate.string() + " not used (" + why + ")";
        }
    }
    try {
        RankTrace trace = readRankFile(file, position);
        out.summary = summarizeRank(trace, settings.options);
        if (key && !cached.empty()) {
            try {
                fs::create_directories(cached.parent_path());
                writeFileAtomically(
                    cached, writeRankSummary(*out.summary, stampFor(*key, settings.options)));
            } catch (const std::exception&) {
                // A cache that cannot be written only makes the next open slower.
            }
        }
        if (keep_trace) out.trace = std::move(trace);
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& e) {
        out.unreadable = e.what();
        out.summary.reset();
    }
    return out;
}

// "3 summaries not used (made by another build of Trainscope): a.tsrank, ..."
void groupNotes(const std::vector<Outcome>& outcomes, std::vector<std::string>& notes) {
    size_t count = 0;
    std::string first;
    for (const Outcome& o : outcomes)
        if (!o.note.empty() && count++ == 0) first = o.note;
    if (count == 1) notes.push_back(first + "; its trace was read instead.");
    if (count > 1)
        notes.push_back(std::to_string(count) +
                        " summaries were not used, their traces read "
                        "instead; the first: " +
                        first + ".");
}

} // namespace

fs::path summaryBeside(const fs::path& trace) {
    return fs::path(trace.string() + kRankSummaryFileExtension);
}

SpanSummaries summarizeSpan(const RankSpan& span, const RankSummarySettings& settings,
                            const ReadProgress& progress, bool keep_traces) {
    const size_t n = span.files.size();
    std::vector<Outcome> outcomes(n);
    std::atomic<size_t> done{0};
    std::atomic<bool> cancelled{false};
    std::mutex report;
    const unsigned threads = std::max(1u, ThreadPool::shared().size());
    parallelFor(n, threads, [&](size_t i) {
        if (cancelled.load()) return;
        outcomes[i] = summarizeFile(span.files[i], i, settings, keep_traces);
        const size_t finished = ++done;
        std::lock_guard<std::mutex> lock(report);
        if (progress.report && !progress.report(finished, n)) cancelled = true;
    });
    if (cancelled.load()) throw TraceReadCancelled();
    SpanSummaries out;
    for (size_t i = 0; i < n; ++i) {
        Outcome& o = outcomes[i];
        if (!o.unreadable.empty()) out.unreadable.push_back(std::move(o.unreadable));
        if (!o.summary) continue;
        placeIn(*o.summary, span.files[i], i);
        out.from_summary_files += o.from_file ? 1 : 0;
        out.ranks.push_back(std::move(*o.summary));
        if (o.trace) {
            o.trace->rank = out.ranks.back().rank;
            o.trace->rank_source = out.ranks.back().rank_source;
            out.traces.push_back(std::move(*o.trace));
        }
    }
    groupNotes(outcomes, out.notes);
    return out;
}

RankTraceSummary writeSummaryBeside(const RankFile& file, size_t position,
                                    const GpuAnalysisOptions& options) {
    const std::optional<TraceKey> key = traceKeyOf(file.path);
    RankTrace trace = readRankFile(file, position);
    if (!key) throw std::runtime_error(file.path.string() + ": cannot be read.");
    RankTraceSummary summary = summarizeRank(trace, options);
    writeFileAtomically(summaryBeside(file.path),
                        writeRankSummary(summary, stampFor(*key, options)));
    return summary;
}

} // namespace ts
