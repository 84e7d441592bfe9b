#pragma once
// A folder of per-rank torch.profiler traces, as a distributed run leaves
// them: the TensorBoard plugin's layout (`<worker>.<timestamp>.pt.trace.json`
// [.gz], one file per worker and profiling span) or HTA's (`rank-0.json` ...,
// one span). A span is one distributed profile: every worker's n-th file in
// time order (each worker stamps its files with its own clock, so the
// timestamps of one span differ between workers).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "trace/ReadProgress.h"
#include "trace/Trace.h"

namespace ts {

// A rank's summary beside its trace: `<trace file name>.tsrank`
// (analysis/RankSummaryFile.h). A folder may hold summaries without their
// traces; each then stands for its trace.
inline constexpr const char* kRankSummaryFileExtension = ".tsrank";

struct RankFileName {
    std::string worker; // the name before `.<timestamp>.pt.trace.json`
    std::string span;   // the timestamp, "" without one
};

// The plugin's pattern `<worker>[.<digits>].pt.trace.json[.gz]`; nullopt for
// any other name.
std::optional<RankFileName> parseProfilerFileName(const std::string& file_name);
// The trailing digits of a worker name ("worker1" -> 1, "rank-3" -> 3), -1
// when it ends in none.
int64_t rankFromWorkerName(const std::string& worker);
// `rank` of a trace's "distributedInfo" object (its JSON text), -1 none.
int64_t rankFromDistributedInfo(const std::string& json_text);

struct RankFile {
    std::string worker;
    std::string span; // the file's timestamp, "" without one
    std::filesystem::path path;
};

// One distributed profile: one file per worker, by worker name.
struct RankSpan {
    int number = 1; // 1..n in time order, as the plugin numbers spans
    std::vector<RankFile> files;
};

// The spans of a folder, or of several files given one by one. A Trainscope
// data-parallel run directory gives its ranks' profiling windows
// (`ranks/<r>/trace[_k].json`, worker "rank<r>"). Otherwise only
// `*.pt.trace.json[.gz]` files count when there are any, else every
// `*.json[.gz]` but Trainscope's run.json. Throws std::invalid_argument in
// plain words: a path that does not exist, a folder without trace files
// (naming its subfolders that have some), a single file.
std::vector<RankSpan> findRankSpans(const std::vector<std::filesystem::path>& inputs);

enum class RankSource : uint8_t {
    DistributedInfo, // the trace's distributedInfo.rank
    WorkerName,      // the worker name's trailing digits
    Order,           // neither: the position among the workers
};
const char* toString(RankSource source);

struct RankTrace {
    std::string worker;
    int64_t rank = -1;
    RankSource rank_source = RankSource::Order;
    std::filesystem::path path;
    Trace trace;
};

// Reads one file of a span: its rank from its distributedInfo, else its
// worker name's digits, else `position` (its place among the span's files).
RankTrace readRankFile(const RankFile& file, size_t position, const ReadProgress& progress = {});

// Reads every file of the span (TraceReadError names a file that fails),
// sorted by rank. Throws std::invalid_argument when two files claim one rank.
// `progress` reports each file's read in turn (done/total restart per
// file) and cancels like a single trace's read (TraceReadCancelled).
std::vector<RankTrace> readRankSpan(const RankSpan& span, const ReadProgress& progress = {});

// work(i) for each of `count` files of a span, as many at once as the shared
// pool has threads: a folder of 1,024 ranks is read at the speed of one big
// trace, and what `work` keeps of each (a summary, an analysis) is all that
// stays in memory besides the files in flight. `progress` reports files done
// of files; returning false cancels (TraceReadCancelled once the files in
// flight end). An exception from `work` stops the others and is rethrown.
void forEachRankFile(size_t count, const std::function<void(size_t)>& work,
                     const ReadProgress& progress = {});

} // namespace ts
