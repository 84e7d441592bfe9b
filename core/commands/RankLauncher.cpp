// launchRanks (DistributedRun.h): starts this node's ranks and watches them.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <mutex>
#include <thread>

#include "commands/Cancellation.h"
#include "commands/Commands.h"
#include "commands/DistributedRun.h"
#include "commands/Guarded.h"
#include "distributed/Communicator.h"
#include "report/RunDirectory.h"
#include "util/AtomicFile.h"

namespace ts {
namespace {

using Clock = std::chrono::steady_clock;

void checkLaunchOptions(const RankLaunchOptions& l) {
    std::vector<ConfigIssue> issues;
    if (l.nproc_per_node < 1 || l.nproc_per_node > 1024)
        issues.push_back(
            {"--nproc-per-node", std::to_string(l.nproc_per_node), "must be 1 to 1024 processes"});
    if (l.nnodes < 1 || l.nnodes > 4096)
        issues.push_back({"--nnodes", std::to_string(l.nnodes), "must be 1 to 4096 machines"});
    if (l.node_rank < 0 || l.node_rank >= l.nnodes)
        issues.push_back({"--node-rank", std::to_string(l.node_rank),
                          "must be 0 to --nnodes - 1 (" + std::to_string(l.nnodes - 1) + ")"});
    if (l.master_port < 0 || l.master_port > 65535)
        issues.push_back({"--master-port", std::to_string(l.master_port), "must be a TCP port"});
    if (l.nnodes > 1 && l.master_port == 0)
        issues.push_back(
            {"--master-port", "0", "must be given with --nnodes > 1: every node connects to it"});
    if (!(l.timeout_s >= 1 && l.timeout_s <= 86400))
        issues.push_back({"--dist-timeout", std::to_string(l.timeout_s), "must be 1 to 86400 s"});
    if (!issues.empty()) throw ConfigError("run", issues);
}

// The command line a rank runs: this program's `run` with the same config
// source, the job's directory, and no progress bar except on rank 0.
std::vector<std::string> rankArguments(const RunOptions& options, const std::string& dir,
                                       int rank) {
    std::vector<std::string> args{"trainscope-cli", "run"};
    if (!options.source.preset.empty())
        args.insert(args.end(), {"--preset", options.source.preset});
    if (!options.source.config_file.empty())
        args.insert(args.end(), {"--config", options.source.config_file});
    for (const auto& o : options.source.overrides)
        args.insert(args.end(), {"--set", o});
    if (!dir.empty()) args.insert(args.end(), {"--out", dir});
    if (rank != 0 || !options.progress) args.emplace_back("--no-progress");
    // As in one process, --json means no progress lines on stderr (a rank's
    // stdout, where its JSON goes, is closed: the launcher prints the job's).
    if (options.json) args.emplace_back("--json");
    return args;
}

pid_t startRank(const std::vector<std::string>& args, const DistributedLaunch& rank) {
    const pid_t launcher = ::getpid();
    const pid_t pid = ::fork();
    if (pid != 0) return pid;
    // The child: its own process group, so a terminal's Ctrl-C reaches it once
    // (through the launcher), and SIGTERM when the launcher dies.
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != launcher) ::_exit(1);
    for (const auto& variable : rankEnvironment(rank))
        ::putenv(::strdup(variable.c_str()));
    ::setenv("GLOG_minloglevel", "3", 0); // c10d's socket warnings are ours to word
    // The launcher stops ranks with SIGINT: a launcher started with SIGINT
    // ignored (a shell's background job) must not pass that on.
    ::signal(SIGINT, SIG_DFL);
    // The launcher prints the job's result; a rank's stdout would repeat it.
    if (const int null = ::open("/dev/null", O_WRONLY); null >= 0) ::dup2(null, STDOUT_FILENO);
    std::vector<char*> argv;
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv("/proc/self/exe", argv.data());
    ::_exit(127);
}

std::string describeExit(int rank, int status) {
    const std::string who = "rank " + std::to_string(rank);
    if (WIFSIGNALED(status))
        return who + " was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
               ::strsignal(WTERMSIG(status)) + ")";
    if (WIFEXITED(status)) return who + " exited with code " + std::to_string(WEXITSTATUS(status));
    return who + " stopped";
}

struct Rank {
    int rank = 0;
    pid_t pid = 0;
    std::atomic<bool> running{true};
    int status = 0;
};

// Marks a run.json that a dead rank left "running" as failed, naming why,
// and adds the launcher's finding to a rank 0 that failed on its own.
void recordFailure(const std::filesystem::path& dir, const std::string& why, bool add_to_failed) {
    const auto file = dir / run_files::kRunJson;
    std::ifstream in(file);
    if (!in) return;
    nlohmann::json run = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (run.is_discarded() || !run.contains("summary")) return;
    auto& summary = run["summary"];
    const std::string status = summary.value("status", "");
    if (status == "running") {
        summary["status"] = "failed";
        summary["error"] = why;
    } else if (status == "failed" && add_to_failed) {
        summary["error"] = why + "; " + summary.value("error", "");
    } else {
        return;
    }
    writeFileAtomically(file, run.dump(2) + "\n");
}

} // namespace

int launchRanks(const RunOptions& options, std::ostream& out, std::ostream& err) {
    return runGuarded(err, [&] {
        const RankLaunchOptions& l = options.launch;
        checkLaunchOptions(l);
        // Bad input stops here, before any rank starts.
        const ExperimentConfig config = resolveConfig(options.source);
        std::filesystem::path dir = options.out_dir;
        if (dir.empty() && l.node_rank == 0) dir = runDirectoryFor(options.runs_root, config);

        DistributedLaunch base;
        base.world_size = l.nproc_per_node * l.nnodes;
        base.local_world_size = l.nproc_per_node;
        base.master_addr = l.master_addr;
        base.master_port = l.master_port;
        base.store_hosted_by_launcher = true;
        base.timeout_s = l.timeout_s;
        std::unique_ptr<RendezvousHost> host;
        if (l.node_rank == 0) {
            host = std::make_unique<RendezvousHost>(l.master_addr, l.master_port, base.world_size,
                                                    l.timeout_s);
            base.master_port = host->port();
        }

        // Interrupted while the rendezvous was set up: no rank starts.
        if (cancelRequested()) throw std::runtime_error("interrupted before the ranks started");
        std::vector<std::unique_ptr<Rank>> ranks;
        for (int local = 0; local < l.nproc_per_node; ++local) {
            DistributedLaunch launch = base;
            launch.local_rank = local;
            launch.rank = l.node_rank * l.nproc_per_node + local;
            auto r = std::make_unique<Rank>();
            r->rank = launch.rank;
            r->pid = startRank(rankArguments(options, dir.string(), launch.rank), launch);
            if (r->pid < 0)
                throw std::runtime_error("could not start rank " + std::to_string(launch.rank));
            ranks.push_back(std::move(r));
        }
        // A rank is marked ended before its pid is reaped (after which the pid
        // may be reused): signals go only to live ranks, under this lock.
        std::mutex reap_mutex;
        const auto signalRunning = [&ranks, &reap_mutex](int sig) {
            std::lock_guard<std::mutex> lock(reap_mutex);
            for (const auto& r : ranks)
                if (r->running.load()) ::kill(r->pid, sig);
        };
        // Ctrl-C: each rank is asked once; they agree on a step to stop after.
        CancelRegistration cancel([&signalRunning] { signalRunning(SIGINT); });

        std::string first_failure;
        int first_failed_rank = -1;
        std::optional<Clock::time_point> deadline;
        size_t left = ranks.size();
        while (left > 0) {
            siginfo_t ended{};
            // Seen, not yet reaped (WNOWAIT): the pid stays this rank's.
            if (::waitid(P_ALL, 0, &ended, WEXITED | WNOWAIT | (deadline ? WNOHANG : 0)) < 0) {
                if (errno == EINTR) continue;
                break;
            }
            const pid_t pid = ended.si_pid;
            if (pid == 0) { // a rank still runs after another failed
                if (Clock::now() > *deadline) {
                    signalRunning(SIGKILL);
                    deadline = Clock::now() + std::chrono::hours(1);
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                continue;
            }
            {
                std::lock_guard<std::mutex> lock(reap_mutex);
                for (auto& r : ranks)
                    if (r->pid == pid) r->running.store(false);
            }
            int status = 0;
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            for (auto& r : ranks) {
                if (r->pid != pid) continue;
                r->status = status;
                --left;
                const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
                if (!ok && first_failed_rank < 0) {
                    first_failed_rank = r->rank;
                    first_failure = describeExit(r->rank, status);
                    err << "error: " << first_failure << "; stopping the other ranks\n";
                    // The others notice a dead peer within milliseconds; one
                    // that hangs in a collective fails at the timeout.
                    deadline = Clock::now() +
                               std::chrono::milliseconds(int64_t(l.timeout_s * 1000) + 5000);
                }
            }
        }

        bool all_ok = true;
        for (const auto& r : ranks) {
            const bool ok = WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0;
            all_ok = all_ok && ok;
            if (!ok && !dir.empty())
                recordFailure(dir / "ranks" / std::to_string(r->rank),
                              describeExit(r->rank, r->status), false);
        }
        if (!all_ok && l.node_rank == 0 && !dir.empty()) recordFailure(dir, first_failure, true);
        if (l.node_rank == 0 && !dir.empty()) {
            if (options.json) {
                const RunRecord record = loadRun(dir, false);
                nlohmann::json j = toJson(record.summary);
                j["run_dir"] = dir.string();
                if (record.summary.distributed.world_size > 1)
                    j["distributed"] = toJson(record.summary.distributed);
                out << j.dump(2) << "\n";
            } else {
                out << "run saved to " << dir.string() << "\n";
            }
        }
        if (all_ok) return exit_code::kOk;
        // A rank refusing bad input (exit 2) makes the job's answer the same.
        const Rank& first = **std::find_if(ranks.begin(), ranks.end(), [&](const auto& r) {
            return r->rank == first_failed_rank;
        });
        return WIFEXITED(first.status) && WEXITSTATUS(first.status) == exit_code::kBadInput
                   ? exit_code::kBadInput
                   : exit_code::kFailure;
    });
}

} // namespace ts
