#include "sources/SourceRegistry.h"

#include <algorithm>
#include <stdexcept>

#include "experiments/ReportReader.h"
#include "report/RunDirectory.h"
#include "sources/SourceOpeners.h"
#include "trace/RankFolder.h"

namespace ts::sources {
namespace {

using views::Input;

bool endsWith(std::string_view text, std::string_view end) {
    return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

bool jsonName(std::string_view name) {
    return endsWith(name, ".json") || endsWith(name, ".json.gz");
}

// torch.profiler, Kineto and Trainscope write an object whose keys before
// the events are these; Chrome's array form is a list of event objects.
Match traceContent(const SourceProbe& p) {
    const std::string_view t = p.text();
    if (t.empty()) return Match::No;
    if (t.front() == '[') {
        std::string_view rest = t.substr(1);
        while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front())))
            rest.remove_prefix(1);
        return !rest.empty() && rest.front() == '{' ? Match::ByContent : Match::No;
    }
    if (t.front() != '{') return Match::No;
    for (const char* key : {"\"traceEvents\"", "\"schemaVersion\"", "\"deviceProperties\""})
        if (p.head.find(key) != std::string::npos) return Match::ByContent;
    return Match::No;
}

// A file named like a trace that is none (another JSON object, a file cut
// short) is still the trace reader's to explain.
Match recogniseTrace(const SourceProbe& p) {
    if (p.is_dir) return Match::No;
    const Match match = traceContent(p);
    return match == Match::No && jsonName(p.fileName()) ? Match::ByName : match;
}

Match recogniseRun(const SourceProbe& p) {
    if (!p.is_dir || !p.hasEntry(run_files::kRunJson)) return Match::No;
    const SourceProbe run_json = probeSource(p.path / run_files::kRunJson);
    return run_json.head.find("\"trainscope-run-") != std::string::npos ? Match::ByContent
                                                                        : Match::ByName;
}

// A folder of traces: its first trace-named file is looked into. A folder
// of rank summaries alone (gathered from the nodes that recorded the traces,
// docs/gpu-traces.md "Past one machine") is one too.
Match recogniseRankFolder(const SourceProbe& p) {
    if (!p.is_dir || p.hasEntry(run_files::kRunJson)) return Match::No;
    for (const std::string& name : p.entries)
        if (jsonName(name)) {
            const SourceProbe first = probeSource(p.path / name);
            return traceContent(first) == Match::ByContent ? Match::ByContent : Match::ByName;
        }
    for (const std::string& name : p.entries)
        if (endsWith(name, kRankSummaryFileExtension)) {
            const SourceProbe first = probeSource(p.path / name);
            return first.head.rfind(std::string("TSRANK\0\0", 8), 0) == 0 ? Match::ByContent
                                                                          : Match::ByName;
        }
    return Match::No;
}

// A pickle starts with PROTO (0x80); a snapshot's dict names its segments first.
Match recogniseSnapshot(const SourceProbe& p) {
    if (p.is_dir || p.head.empty() || static_cast<unsigned char>(p.head[0]) != 0x80)
        return Match::No;
    return p.head.find("segments") != std::string::npos ? Match::ByContent : Match::ByName;
}

// export_memory_timeline's rows: a list of lists.
Match recogniseMemoryTimeline(const SourceProbe& p) {
    const std::string_view t = p.text();
    if (p.is_dir || t.empty() || t.front() != '[') return Match::No;
    std::string_view rest = t.substr(1);
    while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front())))
        rest.remove_prefix(1);
    return !rest.empty() && rest.front() == '[' ? Match::ByContent : Match::No;
}

// A study writes its CSV (sweep, ladder) or its JSON (pruning) beside its
// charts: files no other folder holds, so as good as content.
Match recogniseExperiment(const SourceProbe& p) {
    if (!p.is_dir || p.hasEntry(run_files::kRunJson) || reportKind(p.path) == ReportKind::None)
        return Match::No;
    return Match::ByContent;
}

std::vector<SourceKind> makeKinds() {
    return {
        {"run",
         "Trainscope run directory",
         "a folder with run.json (\"format\": \"trainscope-run-1\"), steps.csv and, when "
         "profiled, trace.json and ranks/<r>/",
         SourceShape::Folder,
         {Input::Run, Input::Trace, Input::TraceOrRun, Input::TraceOrRanks, Input::RankFolder},
         "overview",
         "trace-stats",
         recogniseRun,
         openers::run},
        {"trace",
         "Chrome trace",
         "JSON (or gzip of it) with \"traceEvents\": torch.profiler, Kineto, Trainscope; or "
         "Chrome's array of events",
         SourceShape::File,
         {Input::Trace, Input::TraceOrRun, Input::TraceOrRanks},
         "overview",
         "trace-stats",
         recogniseTrace,
         openers::trace},
        {"experiment",
         "sweep, ladder or pruning study",
         "a folder written by trainscope-cli sweep, ladder or prune (sweep.csv, ladder.csv or "
         "prune.json)",
         SourceShape::Folder,
         {Input::RunsFolder},
         "experiments",
         "",
         recogniseExperiment,
         openers::experiment},
        {"rank-folder",
         "folder of per-rank traces",
         "a folder of traces, one per rank (torch.profiler's <worker>.<time>.pt.trace.json)",
         SourceShape::Folder,
         {Input::RankFolder, Input::TraceOrRanks, Input::Trace, Input::TraceOrRun},
         "distributed",
         "trace-stats --view distributed",
         recogniseRankFolder,
         openers::rankFolder},
        {"allocator-snapshot",
         "PyTorch allocator snapshot",
         "a pickle (first byte 0x80) of torch.cuda.memory._snapshot(): segments, device_traces",
         SourceShape::File,
         {Input::Snapshot},
         "snapshot",
         "memory-stats",
         recogniseSnapshot,
         openers::allocatorSnapshot},
        {"memory-timeline",
         "torch.profiler memory timeline",
         "export_memory_timeline's raw rows (a .raw.json.gz): a JSON list of [time, action, "
         "bytes, category]",
         SourceShape::File,
         {Input::MemoryTimeline},
         "memory-categories",
         "trace-stats",
         recogniseMemoryTimeline,
         openers::memoryTimeline},
        {"run-in-progress",
         "run in progress",
         "a run the engine trains now (the form's Start, or the data-parallel job it "
         "launched): its steps as they come, each profiling window's trace when it closes",
         SourceShape::Stream,
         {Input::Run, Input::Trace, Input::TraceOrRun, Input::TraceOrRanks},
         "live",
         "",
         nullptr,
         nullptr},
    };
}

// What a path no kind recognises is, for the message.
std::string whatItIs(const SourceProbe& p) {
    const std::string path = p.path.string();
    if (!p.exists) return path + ": no such file or directory";
    if (p.is_dir && p.entries.empty()) return path + ": the folder is empty";
    if (p.is_dir)
        return path + ": neither a run (it has no " + run_files::kRunJson +
               ") nor a folder of traces (no *.json or *.json.gz files, no *.tsrank summaries "
               "of them)";
    if (!p.read_error.empty()) return path + ": cannot be read: " + p.read_error;
    if (p.head.empty()) return path + ": the file is empty";
    if (p.head.rfind("PK\x03\x04", 0) == 0)
        return path + ": a zip archive (a torch.save checkpoint or a TorchScript model?), not "
                      "a trace, run, allocator snapshot or memory timeline";
    return path +
           ": not a trace, run, folder of rank traces, allocator snapshot or memory "
           "timeline (" +
           (p.text().empty() ? std::string("it holds only white space")
                             : "it starts with '" + std::string(p.text().substr(0, 16)) + "'") +
           ")";
}

std::string joinInputs(const std::vector<views::Input>& inputs) {
    std::string out;
    for (size_t i = 0; i < inputs.size(); ++i)
        out += (i ? (i + 1 == inputs.size() ? " or " : ", ") : "") +
               std::string(views::inputTitle(inputs[i]));
    return out;
}

} // namespace

const char* toString(SourceShape shape) {
    switch (shape) {
    case SourceShape::File:
        return "file";
    case SourceShape::Folder:
        return "folder";
    case SourceShape::Stream:
        return "stream";
    }
    return "";
}

bool SourceKind::feedsInput(views::Input input) const {
    return std::find(feeds.begin(), feeds.end(), input) != feeds.end();
}

const std::vector<SourceKind>& sourceKinds() {
    static const std::vector<SourceKind> kinds = makeKinds();
    return kinds;
}

const SourceKind& sourceKind(std::string_view name) {
    for (const SourceKind& kind : sourceKinds())
        if (name == kind.name) return kind;
    throw std::logic_error("no source kind named " + std::string(name));
}

Recognised recognise(const std::filesystem::path& path) {
    Recognised found;
    // run.json stands for its run directory.
    const bool run_json = path.filename() == run_files::kRunJson;
    found.probe = probeSource(run_json && !std::filesystem::is_directory(path)
                                  ? path.parent_path().empty() ? "." : path.parent_path()
                                  : path);
    for (const SourceKind& kind : sourceKinds()) {
        if (!kind.recognise || !found.probe.exists) continue;
        const Match match = kind.recognise(found.probe);
        if (match > found.match) {
            found.kind = &kind;
            found.match = match;
        }
    }
    if (!found.kind) found.why_not = whatItIs(found.probe);
    return found;
}

std::string describe(const SourceKind& kind) {
    const std::string title = kind.title;
    const bool vowel = std::string_view("aeiouAEIOU").find(title.front()) != std::string::npos;
    return (vowel ? "an " : "a ") + title;
}

const SourceKind& requireKind(const Recognised& found, const std::vector<views::Input>& inputs,
                              const std::string& what) {
    if (!found.kind) throw std::invalid_argument(found.why_not);
    for (views::Input input : inputs)
        if (found.kind->feedsInput(input)) return *found.kind;
    const std::string path = found.probe.path.string();
    std::string message = path + " is " + describe(*found.kind) + " (" + found.kind->recognises +
                          "); " + what + " reads " + joinInputs(inputs) + ".";
    if (*found.kind->command)
        message += " Read it with: trainscope-cli " + std::string(found.kind->command) + " " + path;
    else if (found.kind->shape != SourceShape::Stream)
        message += " Open it in trainscope (the GUI).";
    throw std::invalid_argument(message);
}

} // namespace ts::sources
