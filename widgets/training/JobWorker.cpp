#include "training/JobWorker.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "config/ConfigJson.h"
#include "report/RunDirectory.h"
#include "report/RunFollower.h"

namespace ts::gui {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(100);

// The launcher's own lines ("error: rank 1 was killed ..."), for the log.
std::vector<LogLine> launcherMessages(const std::filesystem::path& log) {
    std::vector<LogLine> lines;
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("error: ", 0) == 0)
            lines.push_back({LogLevel::Error, line.substr(7)});
        else if (line.rfind("warning: ", 0) == 0)
            lines.push_back({LogLevel::Warning, line.substr(9)});
    }
    return lines;
}

std::string describeStatus(int status) {
    if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
    return "exited with code " + std::to_string(WEXITSTATUS(status));
}

} // namespace

JobWorker::JobWorker(ExperimentConfig config, int processes, std::filesystem::path runDir,
                     std::filesystem::path cli, LiveBuffer& live)
    : config_(std::move(config)), processes_(processes), run_dir_(std::move(runDir)),
      cli_(std::move(cli)), live_(live) {}

void JobWorker::requestStop() {
    stop_requested_ = true;
}

pid_t JobWorker::launch() {
    saveConfigFile(config_, run_dir_ / kConfigFile);
    // Written just before the job starts: records older than it are an
    // interrupted run's, which a job resumed in its folder rewrites.
    launched_ns_ = fileWriteTimeNs(run_dir_ / kConfigFile);
    // Everything the child needs is built before fork: a multithreaded parent's
    // child may only make async-signal-safe calls before exec.
    const std::vector<std::string> args = {cli_.string(),
                                           "run",
                                           "--config",
                                           (run_dir_ / kConfigFile).string(),
                                           "--nproc-per-node",
                                           std::to_string(processes_),
                                           "--out",
                                           run_dir_.string(),
                                           "--json",
                                           "--no-progress"};
    std::vector<char*> argv;
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const std::string log = (run_dir_ / kLogFile).string();
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid != 0) return pid;
    // The child: its own process group (a terminal's Ctrl-C aimed at the GUI
    // does not reach it), stopped (SIGTERM) when the GUI dies, its stderr in
    // the log.
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(1);
    ::signal(SIGINT, SIG_DFL); // Stop is a SIGINT: never inherit it ignored
    ::signal(SIGTERM, SIG_DFL);
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) ::dup2(null, STDOUT_FILENO); // the job's JSON summary: run.json has it
    const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (err >= 0) ::dup2(err, STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
}

void JobWorker::follow(pid_t pid) {
    RunFollower follower(run_dir_, launched_ns_);
    bool stop_sent = false, started = false;
    int status = 0;
    for (;;) {
        if (stop_requested_ && !stop_sent) {
            // Training: the launcher asks every rank to stop after the same
            // step and keeps what they measured. Still starting (no rank may
            // yet listen for SIGINT): end the launcher, and its ranks with it.
            ::kill(pid, started ? SIGINT : SIGTERM);
            stop_sent = true;
        }
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        const int wait_error = errno;
        try {
            RunProgressFromFiles news = follower.poll();
            started = started || news.started.has_value();
            if (news.started) live_.onRunStarted(*news.started);
            for (const auto& step : news.steps)
                live_.onStep(step);
            for (const auto& epoch : news.epochs)
                live_.onEpoch(epoch);
            if (!news.rank_steps.empty()) live_.onRankSteps(news.rank_steps);
            for (const auto& warning : news.warnings)
                live_.onMessage(LogLevel::Warning, warning);
        } catch (const std::exception& e) {
            live_.onMessage(LogLevel::Warning, e.what());
        }
        if (done == pid || (done < 0 && wait_error != EINTR)) break;
        std::this_thread::sleep_for(kPollInterval);
    }
    summary_ = finalSummary(status);
}

// The job's run.json (the launcher has added why a rank failed); without one,
// the launcher's own error (bad input, a port in use).
RunSummary JobWorker::finalSummary(int status) {
    const auto lines = launcherMessages(run_dir_ / kLogFile);
    for (const LogLine& line : lines)
        live_.onMessage(line.level, line.text);
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    const std::string why = !lines.empty()
                                ? lines.back().text
                                : cli_.filename().string() + " " + describeStatus(status);
    RunSummary summary;
    summary.status = RunStatus::Failed;
    // A resumed job refused before it started leaves the interrupted run's
    // run.json as it was: its "cancelled" is not this job's outcome.
    const int64_t run_json_ns = fileWriteTimeNs(run_dir_ / run_files::kRunJson);
    if (run_json_ns >= 0 && run_json_ns >= launched_ns_) {
        try {
            summary = loadRun(run_dir_, false).summary;
        } catch (const std::exception& e) {
            live_.onMessage(LogLevel::Error, e.what());
        }
    }
    if (stop_requested_ && summary.steps_completed == 0 && summary.status != RunStatus::Completed) {
        summary.status = RunStatus::Cancelled; // stopped while the job was starting
        summary.error.clear();
        return summary;
    }
    // The launcher's word is final: a rank that failed after rank 0 wrote
    // `completed`, or a launcher killed while run.json still says running.
    if ((!ok && summary.status != RunStatus::Cancelled) || summary.status == RunStatus::Running) {
        summary.status = RunStatus::Failed;
        if (summary.error.empty()) summary.error = why;
    }
    return summary;
}

void JobWorker::run() {
    if (stop_requested_) { // stopped before anything was launched
        summary_.status = RunStatus::Cancelled;
        live_.onRunFinished(summary_);
        return;
    }
    pid_t pid = -1;
    try {
        pid = launch();
    } catch (const std::exception& e) {
        summary_.status = RunStatus::Failed;
        summary_.error = e.what();
    }
    if (pid < 0 && summary_.error.empty()) {
        summary_.status = RunStatus::Failed;
        summary_.error = "could not start " + cli_.string();
    }
    if (pid > 0) follow(pid);
    if (summary_.status == RunStatus::Failed && !summary_.error.empty())
        live_.onMessage(LogLevel::Error, summary_.error);
    live_.onRunFinished(summary_);
}

} // namespace ts::gui
