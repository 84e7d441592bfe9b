#include "trace/RankFolder.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>

#include "trace/ChromeTraceReader.h"

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

std::vector<fs::path> regularFilesIn(const fs::path& dir) {
    std::vector<fs::path> out;
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
        if (e.is_regular_file()) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
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
            files.push_back(in);
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

std::vector<RankTrace> readRankSpan(const RankSpan& span, const ReadProgress& progress) {
    std::vector<RankTrace> out;
    for (const RankFile& f : span.files) {
        RankTrace r;
        r.worker = f.worker;
        r.path = f.path;
        r.trace = readChromeTraceFile(f.path, progress);
        r.rank = rankFromDistributedInfo(r.trace.kineto.distributed_info);
        r.rank_source = RankSource::DistributedInfo;
        if (r.rank < 0) {
            r.rank = rankFromWorkerName(f.worker);
            r.rank_source = RankSource::WorkerName;
        }
        if (r.rank < 0) {
            r.rank = static_cast<int64_t>(out.size());
            r.rank_source = RankSource::Order;
        }
        out.push_back(std::move(r));
    }
    const auto byRank = [](const RankTrace& a, const RankTrace& b) { return a.rank < b.rank; };
    std::stable_sort(out.begin(), out.end(), byRank);
    // Ranks guessed from file names can collide: torch.profiler's default
    // worker name is "<host>_<pid>", and two nodes' pids may match. Then the
    // files' order numbers them all; only ranks the traces state themselves
    // (distributedInfo) that collide are an error.
    const bool guessed_collide = [&] {
        for (size_t i = 1; i < out.size(); ++i)
            if (out[i].rank == out[i - 1].rank &&
                (out[i].rank_source != RankSource::DistributedInfo ||
                 out[i - 1].rank_source != RankSource::DistributedInfo))
                return true;
        return false;
    }();
    if (guessed_collide) {
        std::stable_sort(out.begin(), out.end(),
                         [](const RankTrace& a, const RankTrace& b) { return a.path < b.path; });
        for (size_t i = 0; i < out.size(); ++i) {
            out[i].rank = static_cast<int64_t>(i);
            out[i].rank_source = RankSource::Order;
        }
    }
    for (size_t i = 1; i < out.size(); ++i)
        if (out[i].rank == out[i - 1].rank)
            throw std::invalid_argument(out[i - 1].path.string() + " and " + out[i].path.string() +
                                        " are both rank " + std::to_string(out[i].rank) +
                                        " (from their " + toString(out[i].rank_source) + ").");
    return out;
}

} // namespace ts
