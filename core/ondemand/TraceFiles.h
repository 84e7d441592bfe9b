#pragma once
// The traces libkineto writes on demand: when one is whole, where it goes in
// the folder the user chose, and moving it there whole.
#include <chrono>
#include <map>
#include <string>

namespace ts::ondemand {

struct TraceTicket;
struct ProcessTrace;

// Where a process's libkineto writes on-demand traces, from its environment:
// $KINETO_ONDEMAND_TRACE_DIR, else /tmp/ (it refuses any other folder).
std::string onDemandTraceDir(const std::map<std::string, std::string>& environment);

// `path` exists and ends as a JSON object does (recent libkineto writes a
// temporary file and renames it; older ones wrote in place).
bool traceFileComplete(const std::string& path);

// Where `trace` of `ticket` goes: `<out>/<stamp>_pid<N>.pt.trace.json` for
// one process, `<out>/<stamp>_<job>/rank<R>.pt.trace.json` (a rank folder)
// for several.
std::string traceDestination(const TraceTicket& ticket, const ProcessTrace& trace);
// The folder of a ticket's traces: the rank folder, or the file for one
// process (its `output` once chosen).
std::string ticketOutput(const TraceTicket& ticket);
// ticketOutput() for a new ticket, made unique in its folder ("-2" after the
// stamp when a trace of the same name is there).
std::string unusedOutput(const TraceTicket& ticket);

// Moves `from` to `to` (creating its folder), through a temporary name when
// it must be copied across file systems, so that `to` is whole or absent;
// false with `error` in plain words.
bool moveTrace(const std::string& from, const std::string& to, std::string& error);

// One look at a process asked for a trace (Handed or Tracing): its file
// whole and moved (Written), or Failed saying why (it exited, nothing
// appeared within `write_timeout`, the file could not be moved); otherwise
// unchanged.
void checkAskedTrace(const TraceTicket& ticket, ProcessTrace& trace, bool alive,
                     std::chrono::steady_clock::time_point now,
                     std::chrono::steady_clock::duration write_timeout);

} // namespace ts::ondemand
