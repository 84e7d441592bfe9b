#include "analysis/RankSummaries.h"

#include <map>
#include <optional>

#include "analysis/OverviewCacheFormat.h"
#include "analysis/RankSummaryFile.h"
#include "trace/TraceKey.h"
#include "util/AtomicFile.h"

namespace ts {

namespace fs = std::filesystem;

namespace {

RankSummaryStamp stampFor(const TraceKey& key, const GpuAnalysisOptions& options) {
    RankSummaryStamp stamp;
    stamp.trace_size = key.size;
    stamp.fingerprint[0] = key.fingerprint[0];
    stamp.fingerprint[1] = key.fingerprint[1];
    stamp.mtime_ns = key.mtime_ns;
    stamp.device = key.device;
    stamp.inode = key.inode;
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

// A summary file of this format, made with these options; else nullopt
// and why.
std::optional<RankSummaryRead> readSummary(const fs::path& path, const GpuAnalysisOptions& options,
                                           std::string& why) {
    const std::optional<std::string> bytes = readWholeFile(path);
    if (!bytes) {
        why = "no summary";
        return std::nullopt;
    }
    std::optional<RankSummaryRead> read = readRankSummary(*bytes, &why);
    if (read && read->stamp.plugin_compatible != options.plugin_compatible) {
        why = read->stamp.plugin_compatible ? "made with --plugin-compatible"
                                            : "made without --plugin-compatible";
        read.reset();
    }
    return read;
}

// The trace as the summaries are checked against it: its stat at once, its
// fingerprint only when a summary's stat differs (a copied trace).
class TraceIdentity {
public:
    TraceIdentity(const fs::path& path, const GpuAnalysisOptions& options)
        : path_(path), options_(options) {
        if (const std::optional<TraceKey> stat = traceStatOf(path))
            stat_ = stampFor(*stat, options);
    }
    bool matches(const RankSummaryStamp& stamp, std::string& why) {
        if (!stat_) return false;
        if (stamp.build != stat_->build) {
            why = "made by another build of Trainscope";
            return false;
        }
        if (stamp.sameFile(*stat_)) return true;
        const std::optional<RankSummaryStamp> full = fingerprinted();
        if (full && stamp.sameTrace(*full)) return true;
        why = "made of another version of the trace";
        return false;
    }
    // The stamp a summary written now gets; nullopt when the trace cannot be read.
    const std::optional<RankSummaryStamp>& fingerprinted() {
        if (!hashed_) {
            hashed_ = true;
            if (const std::optional<TraceKey> key = traceKeyOf(path_))
                full_ = stampFor(*key, options_);
        }
        return full_;
    }

private:
    fs::path path_;
    GpuAnalysisOptions options_;
    std::optional<RankSummaryStamp> stat_, full_;
    bool hashed_ = false;
};

Outcome fromSummaryOnly(const RankFile& file, const GpuAnalysisOptions& options) {
    Outcome out;
    const fs::path beside = summaryBeside(file.path);
    std::string why;
    if (std::optional<RankSummaryRead> read = readSummary(beside, options, why)) {
        out.summary = std::move(read->summary);
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
    TraceIdentity trace(file.path, settings.options);
    const fs::path cached = traceCacheFileFor(file.path, settings.cache, kRankSummaryFileExtension);
    for (const fs::path& candidate : {summaryBeside(file.path), cached}) {
        if (keep_trace || candidate.empty()) break; // keeping the trace means reading it
        std::string why;
        std::optional<RankSummaryRead> read = readSummary(candidate, settings.options, why);
        if (read && trace.matches(read->stamp, why)) {
            out.summary = std::move(read->summary);
            out.from_file = true;
            return out;
        }
        if (why != "no summary")
            out.note = "summary " + candidate.string() + " not used (" + why + ")";
    }
    try {
        const std::optional<RankSummaryStamp> stamp = trace.fingerprinted();
        RankTrace read = readRankFile(file, position);
        out.summary = summarizeRank(read, settings.options);
        if (stamp && !cached.empty()) {
            try {
                fs::create_directories(cached.parent_path());
                writeFileAtomically(cached, writeRankSummary(*out.summary, *stamp));
            } catch (const std::exception&) {
                // A cache that cannot be written only makes the next open slower.
            }
        }
        if (keep_trace) out.trace = std::move(read);
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
    forEachRankFile(
        n, [&](size_t i) { outcomes[i] = summarizeFile(span.files[i], i, settings, keep_traces); },
        progress);
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
