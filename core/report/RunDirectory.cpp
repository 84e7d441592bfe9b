#include "report/RunDirectory.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include "config/ConfigJson.h"
#include "report/JsonNumbers.h"
#include "report/RunContinuation.h"
#include "report/RunProfileWriter.h"
#include "report/StepsCsv.h"
#include "util/AtomicFile.h"
#include "util/ErrorText.h"
#include "util/LocalTimeStamp.h"

namespace ts {

namespace fs = std::filesystem;
using nlohmann::json;

bool RunRecord::hasTrace() const {
    return fs::exists(dir / run_files::kTraceJson);
}
bool RunRecord::hasOps() const {
    return fs::exists(dir / run_files::kOpsCsv);
}

namespace {

// "runs/x: cannot create the directory (Not a directory)" for a path through
// a file, a full disk or a directory the user may not write in.
void createDirectory(const fs::path& dir) {
    std::error_code error;
    fs::create_directories(dir, error);
    if (!error && !fs::is_directory(dir, error))
        error = std::make_error_code(std::errc::not_a_directory);
    if (error)
        throw RunFormatError(dir.string() + ": cannot create the directory (" + error.message() +
                             ")");
}

} // namespace

RunRecorder::RunRecorder(fs::path dir)
    : dir_((createDirectory(dir), std::move(dir))),
      lock_(::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (::access(dir_.c_str(), W_OK) != 0)
        throw RunFormatError(dir_.string() + ": cannot write in this directory");
    // Released with the process, even when it is killed: never a stale lock.
    if (lock_.get() >= 0 && ::flock(lock_.get(), LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
        throw RunFormatError(dir_.string() +
                             ": another Trainscope process is writing this run (is it still "
                             "training?); wait for it to end, or write into another directory "
                             "(--out)");
    // What a run killed mid-write left (older versions, file systems
    // without unnamed files) goes before this run writes anything.
    removeStaleTempFiles(dir_);
}

namespace {

// steps.csv is opened when the run starts, together with run.json: a run
// refused or killed while it loads its model and data leaves neither. A run
// continued in its directory appends to the rows it kept.
void openStepsFile(std::ofstream& steps, const fs::path& dir, bool append = false) {
    errno = 0;
    steps.open(dir / run_files::kStepsCsv, append ? std::ios::app : std::ios::trunc);
    // Flushed now so a reader opening the run while it trains sees a valid file.
    if (steps && !append) steps << stepsCsvHeader() << std::flush;
    if (!steps) throw RunFormatError(writeError((dir / run_files::kStepsCsv).string(), errno));
}

} // namespace

RunRecorder::~RunRecorder() = default;

void RunRecorder::onRunStarted(const RunInfo& info) {
    std::lock_guard<std::mutex> lock(mutex_);
    info_ = info;
    summary_.status = RunStatus::Running;
    if (!steps_.is_open()) continueEarlierRun();
    if (!steps_.is_open() && !continuation_) openStepsFile(steps_, dir_);
    writeRunJson();
    if (steps_.is_open()) return;
    // After run.json, which no longer lists what goes: the steps and the
    // window files measured after the checkpoint.
    continuation_->rewriteFiles(dir_);
    openStepsFile(steps_, dir_, /*append=*/true);
}

void RunRecorder::amendInfo(const RunInfo& info) {
    std::lock_guard<std::mutex> lock(mutex_);
    info_ = info;
}

// A run resumed into its own directory keeps the records there up to its
// checkpoint; nothing is changed before they have all been read.
void RunRecorder::continueEarlierRun() {
    std::optional<RunContinuation> earlier;
    try {
        earlier = RunContinuation::open(dir_, info_);
    } catch (const RunFormatError& e) {
        throw RunFormatError(std::string(e.what()) +
                             "; the run cannot continue these records: resume it into another "
                             "directory (--out)");
    }
    if (!earlier) return;
    continuation_ = std::make_unique<RunContinuation>(std::move(*earlier));
    info_ = continuation_->info(info_);
    epochs_ = continuation_->epochs();
    profile_ = continuation_->profile();
    auto messages = continuation_->messages();
    messages.insert(messages.end(), messages_.begin(), messages_.end());
    messages_ = std::move(messages);
}

void RunRecorder::onStep(const StepRecord& step) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!steps_.is_open()) openStepsFile(steps_, dir_); // steps never go unrecorded
    const StepRecord recorded = continuation_ ? continuation_->step(step) : step;
    if (continuation_) continuation_->addStep(recorded);
    // Flushed per step (one small write, microseconds against a step of
    // milliseconds): a viewer following the run from another process sees
    // every step, and a killed process loses none it measured.
    errno = 0;
    steps_ << stepsCsvRow(recorded) << std::flush;
    // A full disk stops the run here, naming the file, rather than losing steps.
    if (!steps_) throw RunFormatError(writeError((dir_ / run_files::kStepsCsv).string(), errno));
}

void RunRecorder::onEpoch(const EpochRecord& epoch) {
    std::lock_guard<std::mutex> lock(mutex_);
    const EpochRecord recorded = continuation_ ? continuation_->epoch(epoch) : epoch;
    if (continuation_) continuation_->addEpoch(recorded);
    epochs_.push_back(recorded);
    steps_.flush();
    writeRunJson();
}

void RunRecorder::onProfile(const ProfileCapture& capture) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (profile_.is_null()) profile_ = json::array();
    try {
        if (continuation_ && continuation_->windowOffset() > 0) {
            // Numbered after the windows kept, so their files stay.
            ProfileCapture shifted = capture;
            shifted.window += continuation_->windowOffset();
            profile_.push_back(writeProfileOutputs(shifted, dir_));
        } else {
            profile_.push_back(writeProfileOutputs(capture, dir_));
        }
    } catch (const std::exception& e) {
        messages_.push_back(std::string("error: writing profile outputs failed: ") + e.what());
    }
    // Called as the run ends too (a window cut short), outside the engine's
    // error handling: a full disk keeps the window for the next run.json.
    try {
        writeRunJson();
    } catch (const std::exception& e) {
        messages_.push_back(std::string("error: ") + e.what());
    }
}

void RunRecorder::onMessage(LogLevel level, const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    const char* prefix = level == LogLevel::Error     ? "error: "
                         : level == LogLevel::Warning ? "warning: "
                                                      : "";
    messages_.push_back(prefix + text);
    if (!steps_.is_open()) return; // not started: run.json comes with the start
    // Written now so a run killed before its next epoch keeps the message;
    // a failed write keeps it for the next one (messages come from error paths).
    try {
        writeRunJson();
    } catch (const std::exception&) {
    }
}

void RunRecorder::onRunFinished(const RunSummary& summary) {
    std::lock_guard<std::mutex> lock(mutex_);
    summary_ = continuation_ ? continuation_->summary(summary) : summary;
    finished_ = true;
    steps_.flush();
    writeRunJson();
}

std::optional<RunSummary> RunRecorder::recordedSummary() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!finished_) return std::nullopt;
    return summary_;
}

void RunRecorder::writeRunJson() {
    json epochs = json::array();
    for (const auto& e : epochs_)
        epochs.push_back(toJson(e));
    json run = toJson(info_);
    run["format"] = "trainscope-run-1";
    run["epochs"] = epochs;
    run["summary"] = toJson(summary_);
    if (summary_.distributed.world_size > 1) run["distributed"] = toJson(summary_.distributed);
    run["profile"] = profile_;
    run["messages"] = messages_;
    if (continuation_) run["resumed"] = continuation_->resumptions();
    writeFileAtomically(dir_ / run_files::kRunJson, run.dump(2) + "\n");
}

void discardUnstartedRun(const fs::path& dir, bool made_for_it) {
    std::error_code ignored;
    if (fs::exists(dir / run_files::kRunJson, ignored)) return;
    fs::remove(dir / run_files::kStepsCsv, ignored);
    if (made_for_it) fs::remove(dir, ignored); // only succeeds when empty
}

RunRecord loadRun(const fs::path& dir, bool with_steps) {
    const auto path = dir / run_files::kRunJson;
    std::ifstream in(path);
    if (!in)
        throw RunFormatError(path.string() + ": cannot open (is " + dir.string() +
                             " a Trainscope run directory?)");
    json j;
    try {
        j = json::parse(in);
    } catch (const json::exception& e) { // also out_of_range: 1e404
        throw RunFormatError(path.string() + ": not valid JSON (" + e.what() + ")");
    }
    RunRecord r;
    r.dir = dir;
    try {
        if (j.value("format", "") != "trainscope-run-1")
            throw RunFormatError(path.string() + ": not a Trainscope run (format field missing)");
        r.info.config = configFromJson(j.at("config"), path.string());
        r.info.env = environmentFromJson(j.value("environment", json::object()));
        r.info.train_samples = intValue(j, "train_samples", int64_t(0));
        r.info.val_samples = intValue(j, "val_samples", int64_t(0));
        r.info.steps_per_epoch = intValue(j, "steps_per_epoch", int64_t(0));
        r.info.parameters = intValue(j, "parameters", int64_t(0));
        r.info.forward_macs = j.value("forward_macs", 0.0);
        r.info.start_epoch = intValue(j, "start_epoch", 0);
        r.info.start_global_step = intValue(j, "start_global_step", int64_t(0));
        r.info.optimizer_implementation = j.value("optimizer_implementation", "");
        if (j.contains("source")) r.info.source = scriptSourceFromJson(j["source"]);
        for (const auto& e : j.value("epochs", json::array()))
            r.epochs.push_back(epochFromJson(e));
        r.summary = summaryFromJson(j.value("summary", json::object()));
        if (j.contains("distributed"))
            r.summary.distributed = distributedFromJson(j["distributed"]);
        r.profile = j.value("profile", json());
    } catch (const RunFormatError&) {
        throw;
    } catch (const std::exception& e) {
        throw RunFormatError(path.string() + ": " + e.what());
    }
    if (with_steps && fs::exists(dir / run_files::kStepsCsv))
        r.steps = readStepsCsv(dir / run_files::kStepsCsv);
    return r;
}

std::vector<fs::path> findRuns(const fs::path& root) {
    std::vector<std::pair<fs::file_time_type, fs::path>> found;
    std::error_code ec;
    if (fs::exists(root / run_files::kRunJson, ec))
        found.emplace_back(fs::last_write_time(root / run_files::kRunJson, ec), root);
    for (const auto& entry : fs::directory_iterator(root, ec)) {
        const auto file = entry.path() / run_files::kRunJson;
        if (entry.is_directory(ec) && fs::exists(file, ec))
            found.emplace_back(fs::last_write_time(file, ec), entry.path());
    }
    std::sort(found.begin(), found.end(), [](auto& a, auto& b) { return a.first > b.first; });
    std::vector<fs::path> out;
    for (auto& f : found)
        out.push_back(f.second);
    return out;
}

fs::path makeRunDirectory(const fs::path& root, const std::string& name) {
    const std::string stamp = localTimeStamp();
    std::string safe;
    for (char c : name)
        safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
    fs::path dir = root / (stamp + "-" + safe);
    for (int i = 2; fs::exists(dir); ++i)
        dir = root / (stamp + "-" + safe + "-" + std::to_string(i));
    createDirectory(dir);
    return dir;
}

fs::path runDirectoryFor(const fs::path& root, const ExperimentConfig& config) {
    std::error_code error;
    const fs::path resumed(config.resume);
    if (!config.resume.empty() && fs::is_directory(resumed, error) &&
        fs::exists(resumed / run_files::kRunJson, error))
        return resumed;
    return makeRunDirectory(root, config.name);
}

} // namespace ts
