#pragma once
// The live PyTorch processes and the traces asked of them as tables
// (report/TableSpec.h), described once for the GUI's Live jobs panel and the
// CLI, with the sentences both say: how to start a job that can be traced,
// and what to do when the socket is taken.
#include <string>
#include <vector>

#include "ondemand/LiveJobs.h"
#include "report/TableSpec.h"

namespace ts {

namespace live_column {
inline constexpr const char* kPid = "pid";
inline constexpr const char* kJob = "job";
inline constexpr const char* kCommand = "command_line";
inline constexpr const char* kTicket = "ticket";
inline constexpr const char* kStatus = "status";
inline constexpr const char* kProgress = "progress";
inline constexpr const char* kOutput = "output";
} // namespace live_column

// One row per process, as the daemon lists them (by job, rank, pid): pid,
// job, rank, user, last poll ("3 s ago" at `now`), profiler busy, command.
table::TableSpec liveProcessTable(const std::vector<ondemand::LiveProcess>& processes,
                                  ondemand::Clock::time_point now);

// One row per trace asked, in the order given: its number, when it was
// asked, the job, what was asked ("3 steps, shapes"), where it stands
// (ticketStatus), each process's progress and the output.
table::TableSpec traceTicketTable(const std::vector<ondemand::TraceTicket>& tickets);

// "waiting for the next poll", "asked", "tracing (1 of 2 written)",
// "written", "failed": short, for a column (the processes' messages say more).
std::string ticketStatus(const ondemand::TraceTicket& ticket);
// "3 steps, shapes, memory" or "500 ms".
std::string requestText(const ondemand::TraceRequest& request);
// What a process of the ticket is doing, one line: its message while it is
// traced, "written" once its trace is in the output.
std::string processProgress(const ondemand::ProcessTrace& trace);

// How to start a job that can be traced (no full stop at the end).
extern const char kHowToStartTracedJob[];
// What to do when the socket is held by `holder_command` (pid `holder_pid`,
// 0 unknown): dynolog's own tool, or closing the other Trainscope. Empty
// when nothing is known of the holder.
std::string socketTakenAdvice(const std::string& holder_command, int holder_pid);

} // namespace ts
