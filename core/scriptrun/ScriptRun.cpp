#include "scriptrun/ScriptRun.h"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "report/RunDirectory.h"
#include "scriptrun/ChildProcess.h"
#include "scriptrun/ProbeRank.h"
#include "scriptrun/ProbeServer.h"
#include "util/ErrorText.h"
#include "util/HostName.h"

namespace ts::scriptrun {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

void ScriptControl::traceNextSteps(int steps) {
    std::lock_guard<std::mutex> lock(mutex_);
    lines_.push_back(nlohmann::json{{"t", "trace_next"}, {"steps", steps}}.dump());
}

void ScriptControl::memorySnapshot() {
    std::lock_guard<std::mutex> lock(mutex_);
    lines_.push_back(R"({"t":"snapshot"})");
}

std::vector<std::string> ScriptControl::take() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(lines_, {});
}

namespace {

// How long the probes' last lines and the pipes' last bytes may take once
// the script's process ended.
constexpr double kDrainS = 3;
// The end of standard error kept for the failure's message.
constexpr size_t kStderrTail = 4096;

// The first step's batch, for run.json's config (the script chooses it).
class FirstBatch : public TrainerObserver {
public:
    void onStep(const StepRecord& step) override {
        if (batch == 0) batch = step.batch_size;
    }
    int batch = 0;
};

// A job's traces as rank folders, one per cycle (traces/cycle0/rank1.json):
// each folder opens in the Distributed view as one span of the job.
void arrangeRankFolders(const fs::path& traces) {
    std::error_code ec;
    std::vector<fs::path> files; // all first: the folders made below are entries too
    for (const auto& entry : fs::directory_iterator(traces, ec))
        files.push_back(entry.path());
    for (const fs::path& file : files) {
        const std::string name = file.filename().string();
        const size_t cycle = name.find("_cycle");
        if (name.rfind("rank", 0) != 0 || cycle == std::string::npos) continue;
        const std::string rank = name.substr(0, cycle);
        const std::string folder = name.substr(cycle + 1, name.find('.', cycle) - cycle - 1);
        fs::create_directories(traces / folder, ec);
        fs::rename(file, traces / folder / (rank + ".json"), ec);
    }
}

// A rank's steps to ScriptRunHooks::rank_step.
class RankSteps : public TrainerObserver {
public:
    RankSteps(int rank, std::function<void(int, const StepRecord&)> hook)
        : rank_(rank), hook_(std::move(hook)) {}
    void onStep(const StepRecord& step) override { hook_(rank_, step); }

private:
    int rank_;
    std::function<void(int, const StepRecord&)> hook_;
};

class ScriptSession {
public:
    ScriptSession(const ScriptRunOptions& options, const ScriptRunHooks& hooks,
                  InterpreterInfo python, fs::path dir)
        : o_(options), hooks_(hooks), python_(std::move(python)), dir_(std::move(dir)), top_(dir_),
          trace_dir_(dir_ / (options.nproc_per_node > 1 ? kTraceFolder : ".probe-traces")) {
        stdout_log_.open(dir_ / kStdoutLog, std::ios::binary);
        stderr_log_.open(dir_ / kStderrLog, std::ios::binary);
        fs::create_directories(trace_dir_);
    }

    ScriptRunResult run();

private:
    struct Rank {
        ObserverList observers;
        std::unique_ptr<RunRecorder> own; // ranks/<r>/ of a job of several ranks
        std::unique_ptr<RankSteps> rank_steps;
        std::unique_ptr<ProbeRank> probe;
        FirstBatch first;
        RunInfo info;
        bool top = false; // rank 0: the run directory itself
    };

    RunInfo infoFor(const ProbeHello& hello) const;
    RunInfo startRank(Rank& rank, const ProbeHello& hello);
    void serviceOnce(int timeout_ms);
    void pump(int fd, ConsoleStream stream);
    void stopIfAsked();
    void drain();
    ScriptRunResult finish(int exit_code, int term_signal);
    void finishRank(Rank& rank, const ScriptSource& source, const RunSummary& summary);

    ScriptRunOptions o_;
    ScriptRunHooks hooks_;
    InterpreterInfo python_;
    fs::path dir_;
    RunRecorder top_;
    fs::path trace_dir_;
    ProbeServer server_;
    std::unique_ptr<ChildProcess> child_;
    std::vector<std::unique_ptr<Rank>> ranks_; // by connection
    std::ofstream stdout_log_, stderr_log_;
    std::string stderr_tail_;
    Clock::time_point start_ = Clock::now();
    std::optional<Clock::time_point> interrupted_at_;
    bool killed_ = false;
};

RunInfo ScriptSession::infoFor(const ProbeHello& hello) const {
    RunInfo info;
    ExperimentConfig& c = info.config;
    c.name = o_.label();
    c.model = "script";
    c.model_path = o_.script.empty() ? o_.module : o_.script;
    c.dataset = "script";
    c.precision = "script";
    c.device = hello.device.empty() ? "cpu" : hello.device;
    c.batch_size = 0;
    c.epochs = 0;
    c.workers = 0;
    c.profile = o_.profile;
    info.env.trainscope_version = TRAINSCOPE_VERSION;
    info.env.torch_version =
        hello.torch_version.empty() ? python_.torch_version : hello.torch_version;
    info.env.hostname = hostName();
    info.env.logical_cores = int(std::thread::hardware_concurrency());
    info.env.cuda_available = hello.onCuda();
    info.env.cuda_version = hello.cuda_version;
    if (hello.onCuda()) info.env.cuda_devices.push_back({0, hello.device_name, 0});
    ScriptSource& s = info.source;
    s.script = o_.script;
    s.module = o_.module;
    s.args = o_.args;
    s.cwd = fs::absolute(o_.cwd.empty() ? fs::current_path() : fs::path(o_.cwd)).string();
    s.python = hello.executable.empty() ? o_.python : hello.executable;
    s.python_version = hello.python_version.empty() ? python_.python_version : hello.python_version;
    s.torch_version = info.env.torch_version;
    s.device = c.device;
    s.device_name = hello.device_name;
    s.world_size = o_.nproc_per_node;
    return info;
}

RunInfo ScriptSession::startRank(Rank& rank, const ProbeHello& hello) {
    rank.info = infoFor(hello);
    rank.observers.add(&rank.first);
    if (hello.rank == 0 &&
        !std::any_of(ranks_.begin(), ranks_.end(), [](const auto& r) { return r->top; })) {
        rank.top = true;
        rank.observers.add(&top_);
        if (hooks_.observer) rank.observers.add(hooks_.observer);
    }
    if (o_.nproc_per_node > 1) {
        const fs::path own = dir_ / "ranks" / std::to_string(hello.rank);
        fs::create_directories(own);
        rank.own = std::make_unique<RunRecorder>(own);
        rank.observers.add(rank.own.get());
        if (hooks_.rank_step) {
            rank.rank_steps = std::make_unique<RankSteps>(hello.rank, hooks_.rank_step);
            rank.observers.add(rank.rank_steps.get());
        }
    }
    return rank.info;
}

void ScriptSession::pump(int fd, ConsoleStream stream) {
    char buffer[65536];
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got <= 0) {
        stream == ConsoleStream::Stdout ? child_->closeStdout() : child_->closeStderr();
        return;
    }
    const std::string_view bytes(buffer, size_t(got));
    (stream == ConsoleStream::Stdout ? stdout_log_ : stderr_log_).write(buffer, got).flush();
    if (stream == ConsoleStream::Stderr) {
        stderr_tail_.append(bytes);
        if (stderr_tail_.size() > 2 * kStderrTail)
            stderr_tail_.erase(0, stderr_tail_.size() - kStderrTail);
    }
    if (hooks_.console) hooks_.console(stream, bytes);
}

void ScriptSession::serviceOnce(int timeout_ms) {
    std::vector<pollfd> fds;
    if (child_->stdoutFd() >= 0) fds.push_back({child_->stdoutFd(), POLLIN, 0});
    if (child_->stderrFd() >= 0) fds.push_back({child_->stderrFd(), POLLIN, 0});
    server_.addPollFds(fds);
    if (::poll(fds.data(), fds.size(), timeout_ms) <= 0) return;
    for (const pollfd& p : fds) {
        if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
        if (p.fd == child_->stdoutFd())
            pump(p.fd, ConsoleStream::Stdout);
        else if (p.fd == child_->stderrFd())
            pump(p.fd, ConsoleStream::Stderr);
    }
    server_.service(
        fds,
        [this](size_t connection, std::string_view line) {
            while (ranks_.size() <= connection) {
                auto rank = std::make_unique<Rank>();
                Rank* r = rank.get();
                rank->probe = std::make_unique<ProbeRank>(
                    r->observers, [this, r](const ProbeHello& h) { return startRank(*r, h); },
                    trace_dir_);
                ranks_.push_back(std::move(rank));
            }
            ranks_[connection]->probe->onLine(line);
        },
        [this](size_t connection, const std::string& why) {
            if (connection >= ranks_.size()) return;
            Rank& rank = *ranks_[connection];
            rank.probe->endOfStream();
            if (!why.empty() && rank.probe->started())
                rank.observers.onMessage(LogLevel::Warning, "the probe's connection ended: " + why);
        });
}

void ScriptSession::stopIfAsked() {
    if (hooks_.control)
        for (const std::string& line : hooks_.control->take())
            server_.sendToAll(line);
    if (!hooks_.stop || !hooks_.stop->requested()) return;
    if (!interrupted_at_) {
        interrupted_at_ = Clock::now();
        child_->signalGroup(SIGINT);
    } else if (!killed_ &&
               Clock::now() - *interrupted_at_ > std::chrono::duration<double>(o_.stop_grace_s)) {
        killed_ = true;
        child_->signalGroup(SIGKILL);
    }
}

void ScriptSession::drain() {
    const auto until = Clock::now() + std::chrono::duration<double>(kDrainS);
    while (Clock::now() < until &&
           (server_.anyOpen() || child_->stdoutFd() >= 0 || child_->stderrFd() >= 0))
        serviceOnce(50);
}

ScriptRunResult ScriptSession::run() {
    child_ = std::make_unique<ChildProcess>(scriptProcess(o_, server_.address(), trace_dir_));
    std::optional<int> exit_code;
    while (!(exit_code = child_->poll())) {
        serviceOnce(100);
        stopIfAsked();
    }
    drain();
    return finish(*exit_code, child_->termSignal());
}

void ScriptSession::finishRank(Rank& rank, const ScriptSource& source, const RunSummary& summary) {
    rank.info.source = source;
    rank.info.config.batch_size = rank.first.batch;
    rank.info.config.epochs = std::max(1, summary.epochs_completed);
    if (rank.top) top_.amendInfo(rank.info);
    if (rank.own) rank.own->amendInfo(rank.info);
    rank.observers.onRunFinished(summary);
}

ScriptRunResult ScriptSession::finish(int exit_code, int term_signal) {
    ScriptRunResult result;
    result.run_dir = dir_;
    result.exit_code = exit_code;
    const bool stopped = interrupted_at_.has_value();
    result.status = stopped          ? RunStatus::Cancelled
                    : exit_code == 0 ? RunStatus::Completed
                                     : RunStatus::Failed;
    Rank* top = nullptr;
    for (auto& r : ranks_)
        if (r->top) top = r.get();
    if (!top) { // the probe never reported: a run directory all the same
        ranks_.push_back(std::make_unique<Rank>());
        top = ranks_.back().get();
        ProbeHello none;
        top->observers.onRunStarted(startRank(*top, none));
        top->observers.onMessage(LogLevel::Error,
                                 "the script's probe never reported; the script's last output: " +
                                     lastLines(stderr_tail_, 3));
    }
    const auto& bye = top->probe ? top->probe->bye() : std::nullopt;
    ScriptSource source = top->info.source;
    source.exit_code = exit_code;
    source.exit_status = bye ? bye->status : term_signal ? "killed" : "lost";
    if (bye) source.probe_overhead_us_per_step = bye->overhead_us_per_step;
    if (result.status == RunStatus::Failed)
        result.error = term_signal
                           ? "the script was killed by signal " + std::to_string(term_signal) +
                                 " (" + strsignal(term_signal) + ")"
                       : bye && !bye->error.empty()
                           ? bye->error
                           : "the script exited with status " + std::to_string(exit_code) + ": " +
                                 lastLines(stderr_tail_, 3);
    if (stopped) result.error = "stopped";
    const double total_s = std::chrono::duration<double>(Clock::now() - start_).count();
    DistributedSummary job;
    job.world_size = o_.nproc_per_node;
    job.backend = "torchrun";
    for (auto& r : ranks_) {
        if (!r->probe || !r->probe->hello()) continue;
        RankSummary figures = r->probe->rankFigures();
        figures.rank = r->probe->hello()->rank;
        figures.host = hostName();
        job.ranks.push_back(figures);
    }
    for (auto& r : ranks_) {
        RunSummary summary;
        summary.status = result.status;
        summary.error = result.error;
        summary.total_time_s = total_s;
        if (r->probe) summary = r->probe->summary(result.status, result.error, total_s);
        if (r->top && o_.nproc_per_node > 1) summary.distributed = job;
        ScriptSource own = source;
        if (r.get() != top && r->probe && r->probe->bye())
            own.exit_status = r->probe->bye()->status;
        finishRank(*r, own, summary);
    }
    result.steps = top->probe ? top->probe->steps() : 0;
    std::error_code ignored;
    if (o_.nproc_per_node == 1)
        fs::remove_all(trace_dir_, ignored);
    else
        arrangeRankFolders(trace_dir_);
    return result;
}

} // namespace

ScriptRunResult runScript(const ScriptRunOptions& options, const ScriptRunHooks& hooks) {
    const auto problems = checkScriptOptions(options);
    if (!problems.empty()) {
        std::string text;
        for (const auto& p : problems)
            text += (text.empty() ? "" : "; ") + p.message;
        throw std::invalid_argument(text);
    }
    InterpreterInfo python = checkInterpreter(options.python);
    if (!python.usable()) throw InterpreterError(python.error);
    probeFolder(); // says where it looked before a run directory is made
    fs::path dir = options.out_dir;
    if (dir.empty())
        dir = makeRunDirectory(options.runs_root, options.label());
    else
        fs::create_directories(dir);
    dir = fs::absolute(dir); // the probe saves its traces there from the script's folder
    ScriptSession session(options, hooks, std::move(python), dir);
    return session.run();
}

} // namespace ts::scriptrun
