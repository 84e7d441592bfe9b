#pragma once
// The PyTorch processes that poll the daemon, and the traces asked of them:
// the daemon's whole state, with no socket and no clock of its own (each call
// is given the time), so that every transition is tested on recorded
// datagrams. OnDemandDaemon drives it from the socket; the GUI and the CLI
// read snapshots of it.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ondemand/DaemonSocket.h"
#include "ondemand/IpcWire.h"
#include "ondemand/ProcessInfo.h"
#include "ondemand/TraceRequest.h"

namespace ts::ondemand {

using Clock = std::chrono::steady_clock;

// A process that polled in the last minute.
struct LiveProcess {
    int pid = 0;
    std::vector<int32_t> ancestors; // nearest first
    int64_t kineto_job_id = 0;      // $SLURM_JOB_ID as libkineto read it (0: none)
    unsigned uid = 0;
    std::string user;
    std::string command_line;
    std::string parent_command_line;
    // The job it belongs to ("slurm 123", "torchrun <run id>", "pid N"): the
    // processes of one job trace together.
    std::string job;
    int rank = -1; // $RANK (-1: not a distributed job)
    int world_size = 0;
    // Where its libkineto writes on-demand traces ($KINETO_ONDEMAND_TRACE_DIR
    // or /tmp/): it refuses any other folder.
    std::string trace_dir;
    Clock::time_point first_poll, last_poll;
    int polls = 0;
    // Its last poll lacked the activities bit: a trace is running in it (ours,
    // or its own torch.profiler).
    bool profiler_busy = false;
};

enum class TracePhase {
    WaitingForPoll, // asked; the process has not polled since
    Handed,         // the config went out with the reply to its poll
    Tracing,        // its profiler is busy with our config
    Written,        // the trace is in the output folder
    Failed,         // `message` says why
};
const char* tracePhaseName(TracePhase phase);

struct ProcessTrace {
    int pid = 0;
    int rank = -1;
    TracePhase phase = TracePhase::WaitingForPoll;
    std::string log_file; // what the config told libkineto
    std::string written;  // where libkineto wrote it (log_file with _<pid>)
    std::string path;     // the trace in the output folder, once Written
    std::string message;  // what is happening or went wrong, in plain words
    Clock::time_point handed_at;
    // From libkineto's last write of the file to its move into the output
    // folder (ms), once Written: how soon Trainscope has the trace.
    double found_after_ms = 0;
};

struct TraceTicket {
    int id = 0;
    std::string job;
    TraceRequest request;
    std::string out_dir;
    std::string stamp;  // local time asked, YYYYmmdd-HHMMSS: the output's name
    std::string output; // the file or rank folder the traces go to (TraceFiles.h)
    std::vector<ProcessTrace> processes;
    Clock::time_point asked_at;
    bool finished() const;
    bool succeeded() const; // finished with every process written
};

// Which processes to trace: a pid (the process, or every process it is an
// ancestor of, as dynolog matches: torchrun's pid means all its ranks), or
// every process of a job.
struct TraceTarget {
    int pid = 0;
    std::string job;
    bool matches(const LiveProcess& process) const;
};

struct DaemonCounters {
    long datagrams = 0;
    long malformed = 0;
    long other_users = 0;   // refused: sent by another user's process
    long forged_pids = 0;   // refused: the claimed pid is not the sender's
    std::string last_error; // the latest malformed datagram, in words
};

class LiveJobs {
public:
    struct Settings {
        unsigned uid = 0; // answer this user's processes only
        std::chrono::seconds keep_alive{60};
        // How long a process has to poll once asked, and to write its trace
        // once tracing, before the ticket fails saying so.
        std::chrono::seconds poll_timeout{20};
        std::chrono::seconds write_timeout{120};
        // Reads what /proc says of a process (tests give a fake).
        std::function<ProcessInfo(int)> process_info;
        std::function<std::map<std::string, std::string>(int)> environment;
        std::function<bool(int)> alive;
    };
    explicit LiveJobs(Settings settings);

    // A datagram in; the reply to send back (none for a refused one).
    std::optional<std::string> receive(const Datagram& datagram, Clock::time_point now);
    // The clock's work: traces written or given up on, processes forgotten.
    void tick(Clock::time_point now);

    // Asks `target` for a trace into `out_dir`; the ticket's id, or 0 with
    // `error` (no such process polled, a job already being traced...).
    int trace(const TraceTarget& target, const TraceRequest& request, const std::string& out_dir,
              Clock::time_point now, std::string& error);

    std::vector<LiveProcess> processes() const;
    std::vector<TraceTicket> tickets() const;
    std::optional<TraceTicket> ticket(int id) const;
    const DaemonCounters& counters() const { return counters_; }

private:
    std::string answerPoll(const PollRequest& poll, const Credentials& sender,
                           Clock::time_point now);
    // The processes `target` traces: those it matches, without launchers.
    std::vector<const LiveProcess*> trainers(const TraceTarget& target) const;
    LiveProcess describe(const PollRequest& poll, const Credentials& sender,
                         Clock::time_point now) const;
    void advance(TraceTicket& ticket, ProcessTrace& trace, Clock::time_point now);
    struct Pending {
        TraceTicket* ticket = nullptr;
        ProcessTrace* trace = nullptr;
    };
    Pending pendingTraceOf(int pid);

    Settings settings_;
    std::map<int, LiveProcess> processes_; // by pid
    std::vector<TraceTicket> tickets_;
    int next_ticket_ = 1;
    DaemonCounters counters_;
};

} // namespace ts::ondemand
