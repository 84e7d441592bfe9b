#include "inspect/JobCommands.h"

#include <chrono>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "inspect/ExitCodes.h"
#include "inspect/LiveJobTables.h"
#include "inspect/TraceStatsCommand.h"
#include "ondemand/DynologClient.h"
#include "ondemand/OnDemandDaemon.h"
#include "ondemand/ProcessInfo.h"
#include "ondemand/TraceFiles.h"
#include "util/NumberText.h"

namespace ts {

namespace od = ondemand;

namespace {

constexpr auto kPollWait = std::chrono::milliseconds(100);
// libkineto's poll interval, and a little more.
constexpr double kPollEvery = 5.5;

double secondsSince(od::Clock::time_point then) {
    return std::chrono::duration<double>(od::Clock::now() - then).count();
}

// The daemon, or nullptr with the reason on `err`: a dynolog that holds the
// socket is told apart, with what to do.
std::unique_ptr<od::OnDemandDaemon> daemonOrSay(od::OnDemandDaemon::Started started,
                                                std::ostream& err) {
    if (started.daemon) return std::move(started.daemon);
    err << "error: " << started.error << ".\n";
    const std::string advice = socketTakenAdvice(started.holder_command, started.holder_pid);
    if (!advice.empty()) err << advice << '\n';
    return nullptr;
}

nlohmann::json processJson(const od::LiveProcess& p) {
    return {{"pid", p.pid},
            {"job", p.job},
            {"rank", p.rank},
            {"world_size", p.world_size},
            {"user", p.user},
            {"uid", p.uid},
            {"command_line", p.command_line},
            {"parent_command_line", p.parent_command_line},
            {"ancestors", p.ancestors},
            {"kineto_job_id", p.kineto_job_id},
            {"polls", p.polls},
            {"last_poll_s_ago", secondsSince(p.last_poll)},
            {"profiler_busy", p.profiler_busy},
            {"trace_dir", p.trace_dir}};
}

// Waits for `options`' target to poll; false when the timeout passed first.
// A job's ranks, or a parent's children, poll at their own times: every one
// has polled once a poll interval has passed since the daemon started (a
// process without children is traced at once).
bool waitForTarget(const od::OnDemandDaemon& daemon, const TraceJobOptions& options) {
    const auto start = od::Clock::now();
    const od::TraceTarget target{options.pid, options.job};
    while (secondsSince(start) < options.timeout_s) {
        for (const od::LiveProcess& p : daemon.processes())
            if (target.matches(p) && (secondsSince(start) > kPollEvery ||
                                      (p.pid == options.pid && !od::hasChildren(p.pid))))
                return true;
        std::this_thread::sleep_for(kPollWait);
    }
    return false;
}

// Follows the ticket until it finishes, saying each change of its processes on `err`.
od::TraceTicket followTicket(const od::OnDemandDaemon& daemon, int id, std::ostream& err) {
    std::vector<std::string> said;
    while (true) {
        const od::TraceTicket ticket = *daemon.ticket(id);
        said.resize(ticket.processes.size());
        for (size_t i = 0; i < ticket.processes.size(); ++i) {
            const od::ProcessTrace& t = ticket.processes[i];
            const std::string now = t.message.empty() ? od::tracePhaseName(t.phase) : t.message;
            if (now != said[i]) err << "pid " << t.pid << ": " << now << '\n';
            said[i] = now;
        }
        if (ticket.finished()) return ticket;
        std::this_thread::sleep_for(kPollWait);
    }
}

// The overview (one process) or the distributed view (a rank folder) of the
// written traces, as trace-stats prints it.
int printTraceView(const od::TraceTicket& ticket, bool json, std::ostream& out, std::ostream& err,
                   nlohmann::json* report) {
    TraceStatsOptions stats;
    stats.file = od::ticketOutput(ticket);
    stats.view = ticket.processes.size() == 1 ? "overview" : "distributed";
    stats.format = json ? "json" : "text";
    std::ostringstream text;
    const int code = runTraceStats(stats, json ? text : out, err);
    if (json && code == exit_code::kOk) *report = nlohmann::json::parse(text.str(), nullptr, false);
    return code;
}

// "Trace of pid 7741" or "Traces of job torchrun 5f3a, ranks 0-1 (pids 812, 813)".
std::string tracedText(const od::TraceTicket& ticket) {
    if (ticket.processes.size() == 1)
        return "Trace of pid " + std::to_string(ticket.processes.front().pid);
    std::string pids;
    for (const od::ProcessTrace& t : ticket.processes)
        pids += (pids.empty() ? "" : ", ") + std::to_string(t.pid);
    return "Traces of job " + ticket.job + " (pids " + pids + ")";
}

nlohmann::json ticketJson(const od::TraceTicket& ticket) {
    nlohmann::json processes = nlohmann::json::array();
    for (const od::ProcessTrace& t : ticket.processes)
        processes.push_back({{"pid", t.pid},
                             {"rank", t.rank},
                             {"status", od::tracePhaseName(t.phase)},
                             {"path", t.path},
                             {"expected_at", t.written},
                             {"found_after_ms", t.found_after_ms},
                             {"message", t.message}});
    return {{"job", ticket.job},
            {"output", od::ticketOutput(ticket)},
            {"status", ticket.succeeded() ? "written" : "failed"},
            {"processes", processes}};
}

// Where the traces went and their view (text or JSON); the exit code.
int reportTicket(const od::TraceTicket& ticket, const TraceJobOptions& options, std::ostream& out,
                 std::ostream& err) {
    nlohmann::json report;
    int code = ticket.succeeded() ? exit_code::kOk : exit_code::kFailure;
    for (const od::ProcessTrace& t : ticket.processes)
        if (t.phase == od::TracePhase::Failed && !options.json)
            err << "error: pid " << t.pid << ": " << t.message << '\n';
    if (code == exit_code::kOk) {
        if (!options.json) out << tracedText(ticket) << ": " << od::ticketOutput(ticket) << "\n";
        code = printTraceView(ticket, options.json, out, err, &report);
    }
    if (options.json) {
        nlohmann::json j = ticketJson(ticket);
        if (!report.is_null()) j["view"] = report;
        out << j.dump(2) << '\n';
    }
    return code;
}

od::TraceTicket traceViaDynolog(const TraceJobOptions& options, std::ostream& err) {
    return od::traceThroughDynolog(options.pid, options.request, options.out_dir,
                                   std::chrono::seconds(static_cast<long>(options.write_timeout_s)),
                                   [&err](const std::string& line) { err << line << '\n'; });
}

} // namespace

int runJobs(const JobsOptions& options, std::ostream& out, std::ostream& err) {
    if (options.wait_s < 0 || options.wait_s > 3600) {
        err << "error: --wait " << options.wait_s << ": 0 to 3600 seconds\n";
        return exit_code::kBadInput;
    }
    auto daemon = daemonOrSay(od::OnDemandDaemon::start(od::defaultDaemonSettings()), err);
    if (!daemon) return exit_code::kBadInput;
    std::this_thread::sleep_for(std::chrono::duration<double>(options.wait_s));
    const std::vector<od::LiveProcess> processes = daemon->processes();
    const od::DaemonCounters counters = daemon->counters();
    if (options.json) {
        nlohmann::json list = nlohmann::json::array();
        for (const od::LiveProcess& p : processes)
            list.push_back(processJson(p));
        out << nlohmann::json{{"socket", daemon->where()},
                              {"waited_s", options.wait_s},
                              {"processes", list},
                              {"refused_other_users", counters.other_users},
                              {"malformed_datagrams", counters.malformed}}
                   .dump(2)
            << '\n';
        return exit_code::kOk;
    }
    if (processes.empty()) {
        out << "No PyTorch process polled " << daemon->where() << " in "
            << numberText("%.1f", options.wait_s) << " s. " << kHowToStartTracedJob << ".\n";
        return exit_code::kOk;
    }
    out << processes.size() << " PyTorch process" << (processes.size() == 1 ? "" : "es")
        << " polled " << daemon->where() << " in " << numberText("%.1f", options.wait_s) << " s:\n";
    out << table::toText(liveProcessTable(processes, od::Clock::now()));
    if (counters.other_users > 0)
        out << "(" << counters.other_users
            << " polls from other users' processes were not answered)\n";
    return exit_code::kOk;
}

int runTraceJob(const TraceJobOptions& options, std::ostream& out, std::ostream& err) {
    const std::string bad = od::checkTraceRequest(options.request);
    if (!bad.empty() || (options.pid == 0) == options.job.empty() || options.timeout_s <= 0) {
        err << "error: "
            << (!bad.empty()                              ? bad
                : options.timeout_s <= 0                  ? "--timeout must be positive"
                : options.pid == 0 && options.job.empty() ? "give a PID or --job ID"
                                                          : "give a PID or --job ID, not both")
            << '\n';
        return exit_code::kBadInput;
    }
    if (options.pid != 0 && !od::processAlive(options.pid)) {
        err << "error: no process " << options.pid << " on this machine\n";
        return exit_code::kBadInput;
    }
    od::LiveJobs::Settings settings = od::defaultDaemonSettings();
    settings.poll_timeout = std::chrono::seconds(static_cast<long>(options.timeout_s + 0.999));
    settings.write_timeout = std::chrono::seconds(static_cast<long>(options.write_timeout_s));
    od::OnDemandDaemon::Started started = od::OnDemandDaemon::start(settings);
    if (!started.daemon && started.holder_command == "dynolog" && options.pid != 0) {
        err << started.error << ": asking dynolog for the trace\n";
        return reportTicket(traceViaDynolog(options, err), options, out, err);
    }
    auto daemon = daemonOrSay(std::move(started), err);
    if (!daemon) return exit_code::kBadInput;
    const std::string target =
        options.pid != 0 ? "pid " + std::to_string(options.pid) : "job \"" + options.job + "\"";
    err << "waiting for " << target << " to poll " << daemon->where() << " (every 5 s)\n";
    if (!waitForTarget(*daemon, options)) {
        err << "error: "
            << (options.pid != 0 ? "neither " + target + " nor a child of it"
                                 : "no process of " + target)
            << " polled in " << numberText("%.1f", options.timeout_s) << " s. "
            << kHowToStartTracedJob << ".\n";
        return exit_code::kBadInput;
    }
    std::string error;
    const int id =
        daemon->trace({options.pid, options.job}, options.request, options.out_dir, error);
    if (id == 0) {
        err << "error: " << error << '\n';
        return exit_code::kBadInput;
    }
    return reportTicket(followTicket(*daemon, id, err), options, out, err);
}

} // namespace ts
