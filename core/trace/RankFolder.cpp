#include "trace/RankFolder.h"
#include "trace/RankOrder.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <map>
#include <mutex>
#include <regex>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>

#include "trace/ChromeTraceReader.h"
#include "trace/FastTraceReader.h"
#include "util/ThreadPool.h"

namespace fs = std::filesystem;

namespace ts {

std::optional<RankFileName> parseProfilerFileName(const std::string& file_name) {
    static const std::regex kPattern(R"(^(.*?)(\.(\d+))?\.pt\.trace\.json(\.gz)?$)");
    std::smatch m;
    if (!std::regex_match(file_name, m, kPattern) || m[1].length() == 0) return std::nullopt;
    return RankFileName{m[1].str(), m[3].str()};
}

int64_t rankFromWorkerName(const std::string& worker) {
    size_t begin = worker.size();
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(worker[begin - 1])))
        --begin;
    if (begin == worker.size() || worker.size() - begin > 18) return -1;
    return std::stoll(worker.substr(begin));
}

int64_t rankFromDistributedInfo(const std::string& json_text) {
    if (json_text.empty()) return -1;
    const nlohmann::json info = nlohmann::json::parse(json_text, nullptr, false);
    if (!info.is_object()) return -1;
    auto it = info.find("rank");
    return it != info.end() && it->is_number_integer() ? it->get<int64_t>() : -1;
}

const char* toString(RankSource source) {
    switch (source) {
    case RankSource::DistributedInfo:
        return "distributedInfo";
    case RankSource::WorkerName:
        return "file name";
    case RankSource::Order:
        return "order";
    }
    return "order";
}

namespace {

bool endsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "rank-0.json.gz" -> "rank-0"; "" for names that are not JSON.
std::string jsonStem(const std::string& name) {
    for (const char* ext : {".json.gz", ".json"})
        if (endsWith(name, ext) && name.size() > std::string(ext).size())
            return name.substr(0, name.size() - std::string(ext).size());
    return "";
}

// A rank's summary (`<trace>.tsrank`) stands for its trace when the trace
// is not there (gathered from the nodes without it): the trace's path
// then names a file that does not exist, whose summary the reader uses.
std::vector<fs::path> withSummarisedTraces(std::vector<fs::path> files) {
    std::sort(files.begin(), files.end());
    std::vector<fs::path> out;
    for (const fs::path& f : files) {
        if (f.extension() != kRankSummaryFileExtension) {
            out.push_back(f);
            continue;
        }
        fs::path trace = f;
        trace.replace_extension();
        if (!std::binary_search(files.begin(), files.end(), trace)) out.push_back(trace);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<fs::path> regularFilesIn(const fs::path& dir) {
    std::vector<fs::path> out;
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
        if (e.is_regular_file()) out.push_back(e.path());
    return withSummarisedTraces(std::move(out));
}

// Profiler files when there are any, else the other JSON files.
std::vector<RankFile> traceFilesAmong(const std::vector<fs::path>& paths) {
    std::vector<RankFile> profiler, plain;
    for (const fs::path& p : paths) {
        const std::string name = p.filename().string();
        if (auto parsed = parseProfilerFileName(name)) {
            profiler.push_back(RankFile{parsed->worker, parsed->span, p});
        } else if (std::string stem = jsonStem(name); !stem.empty() && name != "run.json") {
            plain.push_back(RankFile{stem, "", p});
        }
    }
    return profiler.empty() ? plain : profiler;
}

std::string subfoldersWithTraces(const fs::path& dir) {
    std::string names;
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
        if (!e.is_directory() || traceFilesAmong(regularFilesIn(e.path())).empty()) continue;
        names += (names.empty() ? "'" : ", '") + e.path().filename().string() + "'";
    }
    return names;
}

std::vector<RankFile> collectFiles(const std::vector<fs::path>& inputs) {
    if (inputs.empty()) throw std::invalid_argument("No folder or trace files given.");
    std::vector<fs::path> files;
    for (const fs::path& in : inputs) {
        std::error_code ec;
        if (fs::is_directory(in, ec)) {
            std::vector<fs::path> inside = regularFilesIn(in);
            if (inside.empty() && fs::is_empty(in, ec))
                throw std::invalid_argument(in.string() + ": the folder is empty.");
            if (traceFilesAmong(inside).empty()) {
                const std::string runs = subfoldersWithTraces(in);
                throw std::invalid_argument(
                    in.string() + ": no trace files (*.pt.trace.json[.gz], *.json[.gz]) in it" +
                    (runs.empty() ? "." : "; its folders " + runs + " have some: pass one."));
            }
            files.insert(files.end(), inside.begin(), inside.end());
        } else if (fs::is_regular_file(in, ec)) {
            files.push_back(in.extension() == kRankSummaryFileExtension
                                ? withSummarisedTraces({in}).front()
                                : in);
        } else {
            throw std::invalid_argument(in.string() + ": no such file or folder.");
        }
    }
    if (files.size() == 1 && !fs::is_directory(inputs.front()))
        throw std::invalid_argument(
            files.front().string() +
            ": the distributed view needs the traces of several ranks: pass their folder "
            "(or several files).");
    std::vector<RankFile> found = traceFilesAmong(files);
    if (found.empty())
        throw std::invalid_argument("None of the given files is a trace (*.pt.trace.json[.gz], "
                                    "*.json[.gz]).");
    return found;
}

// A Trainscope data-parallel run: `run.json` beside `ranks/<r>/`, each rank's
// profiling windows as `trace.json`, `trace_1.json`, ... (window k of every
// rank is span k + 1). Empty for any other folder.
std::vector<RankFile> jobRankFiles(const fs::path& dir) {
    std::error_code ec;
    std::vector<RankFile> out;
    if (!fs::is_regular_file(dir / "run.json", ec) || !fs::is_directory(dir / "ranks", ec))
        return out;
    static const std::regex kWindow(R"(^trace(_(\d{1,6}))?\.json$)");
    for (const fs::directory_entry& rank_dir : fs::directory_iterator(dir / "ranks", ec)) {
        const std::string rank = rank_dir.path().filename().string();
        if (!rank_dir.is_directory() || rank.empty() || rank.size() > 6 ||
            !std::all_of(rank.begin(), rank.end(), [](unsigned char c) { return std::isdigit(c); }))
            continue;
        for (const fs::path& file : regularFilesIn(rank_dir.path())) {
            std::smatch m;
            const std::string name = file.filename().string();
            if (!std::regex_match(name, m, kWindow)) continue;
            std::string window = m[2].matched ? m[2].str() : "0";
            window.insert(0, 6 - window.size(), '0'); // sorted as text, like timestamps
            out.push_back(RankFile{"rank" + rank, window, file});
        }
    }
    return out;
}

} // namespace

std::vector<RankSpan> findRankSpans(const std::vector<fs::path>& inputs) {
    std::vector<RankFile> files;
    if (inputs.size() == 1) files = jobRankFiles(inputs.front());
    if (files.empty()) files = collectFiles(inputs);
    // Per worker its files in span order (the plugin sorts the timestamps as
    // text); the n-th file of every worker forms span n.
    std::map<std::string, std::vector<RankFile>> by_worker;
    for (RankFile& f : files)
        by_worker[f.worker].push_back(std::move(f));
    std::vector<RankSpan> spans;
    for (auto& [worker, files] : by_worker) {
        std::stable_sort(files.begin(), files.end(),
                         [](const RankFile& a, const RankFile& b) { return a.span < b.span; });
        for (size_t i = 0; i < files.size(); ++i) {
            if (spans.size() <= i) spans.push_back(RankSpan{static_cast<int>(i) + 1, {}});
            spans[i].files.push_back(files[i]);
        }
    }
    return spans;
}

RankTrace readRankFile(const RankFile& f, size_t position, const ReadProgress& progress) {
    RankTrace r;
    r.worker = f.worker;
    r.path = f.path;
    // The fast reader whatever the size: rank files are small (8 MB, a
    // tenth of it gzipped), read many at once, where the stream reader's
    // 3x per byte adds up (a 256-rank gzipped folder: 46 of 78 s).
    TraceReadOptions options;
    options.min_parallel_bytes = 0;
    std::error_code ec;
    if (!fs::exists(f.path, ec) && fs::exists(f.path.string() + kRankSummaryFileExtension, ec))
        throw TraceReadError(f.path.string() + ": the trace is not here, only its rank summary (" +
                             f.path.filename().string() + kRankSummaryFileExtension +
                             "), which --view distributed and --view temporal read; this "
                             "view needs the trace.");
    r.trace = readChromeTraceFile(f.path, progress, options);
    r.rank = rankFromDistributedInfo(r.trace.kineto.distributed_info);
    r.rank_source = RankSource::DistributedInfo;
    if (r.rank < 0) {
        r.rank = rankFromWorkerName(f.worker);
        r.rank_source = RankSource::WorkerName;
    }
    if (r.rank < 0) {
        r.rank = static_cast<int64_t>(position);
        r.rank_source = RankSource::Order;
    }
    return r;
}

std::vector<RankTrace> readRankSpan(const RankSpan& span, const ReadProgress& progress) {
    std::vector<RankTrace> out;
    for (const RankFile& f : span.files)
        out.push_back(readRankFile(f, out.size(), progress));
    orderRanksOrThrow(out);
    return out;
}

void forEachRankFile(size_t count, const std::function<void(size_t)>& work,
                     const ReadProgress& progress) {
    std::atomic<size_t> done{0};
    std::atomic<bool> cancelled{false};
    std::mutex report;
    const unsigned threads = std::max(1u, ThreadPool::shared().size());
    parallelFor(count, threads, [&](size_t i) {
        if (cancelled.load()) return;
        work(i);
        const size_t finished = ++done;
        std::lock_guard<std::mutex> lock(report);
        if (progress.report && !progress.report(finished, count)) cancelled = true;
    });
    if (cancelled.load()) throw TraceReadCancelled();
}

} // namespace ts
