#include "inspect/LiveJobTables.h"

#include <algorithm>
#include <chrono>

#include "ondemand/TraceFiles.h"

namespace ts {

namespace od = ondemand;
using table::Column;
using table::ColumnKind;

namespace {

// "20240501-154207" -> "15:42:07" (the date is in the output's name).
std::string timeOfStamp(const std::string& stamp) {
    if (stamp.size() != 15 || stamp[8] != '-') return stamp;
    return stamp.substr(9, 2) + ":" + stamp.substr(11, 2) + ":" + stamp.substr(13, 2);
}

std::string plural(long n, const std::string& one, const std::string& many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The least advanced phase of the processes still being traced.
od::TracePhase slowestPhase(const od::TraceTicket& ticket) {
    od::TracePhase slowest = od::TracePhase::Tracing;
    for (const od::ProcessTrace& t : ticket.processes)
        if (t.phase == od::TracePhase::WaitingForPoll ||
            (t.phase == od::TracePhase::Handed && slowest == od::TracePhase::Tracing))
            slowest = t.phase;
    return slowest;
}

std::string unfinishedStatus(od::TracePhase phase) {
    switch (phase) {
    case od::TracePhase::WaitingForPoll:
        return "waiting for the next poll";
    case od::TracePhase::Handed:
        return "asked"; // its message says: tracing from its next step
    default:
        return "tracing";
    }
}

std::string progressText(const od::TraceTicket& ticket) {
    if (ticket.processes.size() == 1) return processProgress(ticket.processes.front());
    std::string text;
    for (const od::ProcessTrace& t : ticket.processes)
        text += (text.empty() ? "" : "; ") +
                (t.rank >= 0 ? "rank " + std::to_string(t.rank) : "pid " + std::to_string(t.pid)) +
                ": " + processProgress(t);
    return text;
}

} // namespace

const char kHowToStartTracedJob[] =
    "A job can be traced once it was started with KINETO_USE_DAEMON=1 in its environment, "
    "e.g. KINETO_USE_DAEMON=1 python train.py (under torchrun: KINETO_USE_DAEMON=1 torchrun "
    "...; see docs/on-demand.md)";

std::string socketTakenAdvice(const std::string& holder_command, int holder_pid) {
    if (holder_command == "dynolog")
        return "dynolog answers the PyTorch jobs on this machine: `trainscope-cli trace-job PID` "
               "asks it for a trace (on its port 1778), but only the socket's owner sees the "
               "jobs; stop dynolog to let Trainscope list them.";
    if (holder_command.rfind("trainscope", 0) == 0)
        return "Another Trainscope answers the jobs: close its Live jobs panel (or let its "
               "command end), then try again.";
    if (holder_pid > 0)
        return "That process answers the jobs' polls in Trainscope's place: stop it, then try "
               "again.";
    return {};
}

std::string requestText(const od::TraceRequest& request) {
    std::string text = request.iterations > 0 ? plural(request.iterations, "step", "steps")
                                              : std::to_string(request.duration_ms) + " ms";
    const std::pair<bool, const char*> options[] = {{request.shapes, "shapes"},
                                                    {request.memory, "memory"},
                                                    {request.stacks, "stacks"},
                                                    {request.modules, "modules"}};
    for (const auto& [on, name] : options)
        if (on) text += std::string(", ") + name;
    return text;
}

std::string processProgress(const od::ProcessTrace& trace) {
    if (trace.phase == od::TracePhase::Written) return od::tracePhaseName(trace.phase);
    return trace.message.empty() ? od::tracePhaseName(trace.phase) : trace.message;
}

std::string ticketStatus(const od::TraceTicket& ticket) {
    const auto count = [&ticket](od::TracePhase phase) {
        return std::count_if(ticket.processes.begin(), ticket.processes.end(),
                             [phase](const od::ProcessTrace& t) { return t.phase == phase; });
    };
    const long written = count(od::TracePhase::Written);
    const long failed = count(od::TracePhase::Failed);
    const long all = static_cast<long>(ticket.processes.size());
    const std::string of =
        " (" + std::to_string(written) + " of " + std::to_string(all) + " written)";
    if (ticket.finished()) return failed == 0 ? "written" : written == 0 ? "failed" : "failed" + of;
    return unfinishedStatus(slowestPhase(ticket)) + (all > 1 && written + failed > 0 ? of : "");
}

table::TableSpec liveProcessTable(const std::vector<od::LiveProcess>& processes,
                                  od::Clock::time_point now) {
    table::TableSpec spec;
    spec.title = "Live PyTorch processes";
    spec.columns = {
        Column{live_column::kPid, "PID", "The process id", ColumnKind::Integer},
        Column{live_column::kJob, "Job",
               "The job it belongs to (Slurm job, torchrun run id, rendezvous address, or "
               "itself): a job's processes are traced together"},
        Column{"rank", "Rank", "$RANK / $WORLD_SIZE of a distributed job", ColumnKind::Integer},
        Column{"user", "User", "Whose process it is (only this user's are answered)"},
        Column{"last_poll_s_ago", "Last poll",
               "When it last asked for a config (libkineto polls every 5 s)", ColumnKind::Number},
        Column{"profiler_busy", "Profiler busy",
               "Its profiler is running (a trace asked here, or its own torch.profiler)",
               ColumnKind::YesNo},
        Column{live_column::kCommand, "Command line", "How the process was started"}};
    spec.columns[0].identity = true;
    for (const od::LiveProcess& p : processes) {
        const auto ago = std::chrono::duration_cast<std::chrono::seconds>(now - p.last_poll);
        const long seconds = std::max<long>(0, static_cast<long>(ago.count()));
        spec.rows.push_back(
            {table::integerCell(p.pid), table::textCell(p.job),
             p.rank >= 0 ? table::numberCell(
                               std::to_string(p.rank) + "/" + std::to_string(p.world_size), p.rank)
                         : table::textCell("-"),
             table::textCell(p.user),
             table::numberCell(std::to_string(seconds) + " s ago", seconds),
             table::yesNoCell(p.profiler_busy), table::textCell(p.command_line)});
    }
    return spec;
}

table::TableSpec traceTicketTable(const std::vector<od::TraceTicket>& tickets) {
    table::TableSpec spec;
    spec.title = "Traces asked";
    spec.columns = {
        Column{live_column::kTicket, "#", "The trace's number, in the order asked",
               ColumnKind::Integer},
        Column{"asked", "Asked", "When it was asked (local time)"},
        Column{live_column::kJob, "Job", "The job traced"},
        Column{"request", "Traced", "What was asked: steps or milliseconds, and the options"},
        Column{live_column::kStatus, "Status",
               "Waiting for the next poll (every 5 s), tracing, written or failed"},
        Column{live_column::kProgress, "Progress", "Each process, as it goes"},
        Column{live_column::kOutput, "Output",
               "The trace file (one process) or the rank folder (a job)"}};
    spec.columns[0].identity = true;
    for (const od::TraceTicket& ticket : tickets)
        spec.rows.push_back(
            {table::integerCell(ticket.id), table::textCell(timeOfStamp(ticket.stamp)),
             table::textCell(ticket.job), table::textCell(requestText(ticket.request)),
             table::textCell(ticketStatus(ticket)), table::textCell(progressText(ticket)),
             table::textCell(od::ticketOutput(ticket))});
    return spec;
}

} // namespace ts
