#include "ondemand/LiveJobs.h"

#include <algorithm>
#include <unistd.h>

#include "ondemand/TraceFiles.h"
#include "util/LocalTimeStamp.h"

namespace ts::ondemand {

namespace {

const std::vector<std::string> kJobVariables = {
    "SLURM_JOB_ID", "TORCHELASTIC_RUN_ID",      "MASTER_ADDR", "MASTER_PORT", "RANK",
    "WORLD_SIZE",   "KINETO_ONDEMAND_TRACE_DIR"};

int numberOr(const std::map<std::string, std::string>& values, const std::string& name,
             int fallback) {
    const auto it = values.find(name);
    if (it == values.end()) return fallback;
    try {
        return std::stoi(it->second);
    } catch (const std::exception&) {
        return fallback;
    }
}

std::string valueOf(const std::map<std::string, std::string>& values, const std::string& name) {
    const auto it = values.find(name);
    return it == values.end() ? std::string() : it->second;
}

// The job a process belongs to: what its launcher put in its environment.
std::string jobOf(int pid, int64_t kineto_job_id,
                  const std::map<std::string, std::string>& environment) {
    if (kineto_job_id != 0) return "slurm " + std::to_string(kineto_job_id);
    const std::string slurm = valueOf(environment, "SLURM_JOB_ID");
    if (!slurm.empty()) return "slurm " + slurm;
    const std::string run = valueOf(environment, "TORCHELASTIC_RUN_ID");
    if (!run.empty() && run != "none") return "torchrun " + run;
    const std::string address = valueOf(environment, "MASTER_ADDR");
    const std::string port = valueOf(environment, "MASTER_PORT");
    if (!address.empty() && !port.empty() && environment.count("RANK"))
        return "group " + address + ":" + port;
    return "pid " + std::to_string(pid);
}

bool unfinished(const ProcessTrace& trace) {
    return trace.phase != TracePhase::Written && trace.phase != TracePhase::Failed;
}

void fail(ProcessTrace& trace, std::string message) {
    trace.phase = TracePhase::Failed;
    trace.message = std::move(message);
}

std::string seconds(Clock::duration duration) {
    return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(duration).count()) +
           " s";
}

} // namespace

const char* tracePhaseName(TracePhase phase) {
    switch (phase) {
    case TracePhase::WaitingForPoll:
        return "waiting for its next poll";
    case TracePhase::Handed:
        return "asked";
    case TracePhase::Tracing:
        return "tracing";
    case TracePhase::Written:
        return "written";
    case TracePhase::Failed:
        return "failed";
    }
    return "";
}

bool TraceTarget::matches(const LiveProcess& process) const {
    if (!job.empty()) return process.job == job;
    return pid != 0 &&
           (process.pid == pid || std::find(process.ancestors.begin(), process.ancestors.end(),
                                            pid) != process.ancestors.end());
}

bool TraceTicket::finished() const {
    return std::none_of(processes.begin(), processes.end(), unfinished);
}

bool TraceTicket::succeeded() const {
    return std::all_of(processes.begin(), processes.end(),
                       [](const ProcessTrace& t) { return t.phase == TracePhase::Written; });
}

LiveJobs::LiveJobs(Settings settings) : settings_(std::move(settings)) {
    if (!settings_.process_info) settings_.process_info = readProcessInfo;
    if (!settings_.environment)
        settings_.environment = [](int pid) { return readEnvironment(pid, kJobVariables); };
    if (!settings_.alive) settings_.alive = processAlive;
}

std::optional<std::string> LiveJobs::receive(const Datagram& datagram, Clock::time_point now) {
    ++counters_.datagrams;
    const ParsedDatagram parsed = parseDatagram(datagram.bytes);
    if (!parsed.ok || datagram.truncated) {
        ++counters_.malformed;
        counters_.last_error = datagram.truncated ? "a datagram larger than 64 KiB" : parsed.error;
        return std::nullopt;
    }
    if (!datagram.credentials || datagram.credentials->uid != settings_.uid) {
        ++counters_.other_users;
        return std::nullopt;
    }
    const Credentials& sender = *datagram.credentials;
    if (const auto* poll = std::get_if<PollRequest>(&parsed.message)) {
        if (poll->pids.front() != sender.pid) {
            ++counters_.forged_pids;
            return std::nullopt;
        }
        return encodeConfigReply(answerPoll(*poll, sender, now));
    }
    const auto& context = std::get<ContextRequest>(parsed.message);
    if (context.pid != sender.pid) {
        ++counters_.forged_pids;
        return std::nullopt;
    }
    // How many processes of its job use the device: every process counts once.
    int sharing = 1;
    for (const auto& [pid, process] : processes_)
        if (pid != context.pid && process.kineto_job_id == context.job_id) ++sharing;
    return encodeContextReply(sharing);
}

LiveProcess LiveJobs::describe(const PollRequest& poll, const Credentials& sender,
                               Clock::time_point now) const {
    LiveProcess process;
    process.pid = sender.pid;
    process.ancestors.assign(poll.pids.begin() + 1, poll.pids.end());
    process.kineto_job_id = poll.job_id;
    process.uid = sender.uid;
    process.user = userName(sender.uid);
    process.command_line = settings_.process_info(sender.pid).command_line;
    if (!process.ancestors.empty())
        process.parent_command_line =
            settings_.process_info(process.ancestors.front()).command_line;
    const auto environment = settings_.environment(sender.pid);
    process.job = jobOf(sender.pid, poll.job_id, environment);
    process.rank = numberOr(environment, "RANK", -1);
    process.world_size = numberOr(environment, "WORLD_SIZE", 0);
    process.trace_dir = onDemandTraceDir(environment);
    process.first_poll = now;
    return process;
}

std::string LiveJobs::answerPoll(const PollRequest& poll, const Credentials& sender,
                                 Clock::time_point now) {
    auto found = processes_.find(sender.pid);
    if (found == processes_.end())
        found = processes_.emplace(sender.pid, describe(poll, sender, now)).first;
    LiveProcess& process = found->second;
    process.last_poll = now;
    ++process.polls;
    process.profiler_busy = (poll.config_type & kConfigActivities) == 0;
    const Pending pending = pendingTraceOf(sender.pid);
    ProcessTrace* trace = pending.trace;
    if (trace == nullptr) return {};
    if (trace->phase == TracePhase::Handed && process.profiler_busy) {
        trace->phase = TracePhase::Tracing;
        trace->message = "tracing (its profiler is busy with our request)";
    }
    if (trace->phase != TracePhase::WaitingForPoll) return {};
    if (process.profiler_busy) {
        trace->message = "its profiler is busy (its own torch.profiler, or another trace): "
                         "waiting for it to finish";
        return {};
    }
    trace->phase = TracePhase::Handed;
    trace->handed_at = now;
    trace->message = "asked at its poll; tracing from its next step";
    return kinetoConfig(pending.ticket->request, trace->log_file,
                        static_cast<int>(pending.ticket->processes.size()));
}

LiveJobs::Pending LiveJobs::pendingTraceOf(int pid) {
    for (TraceTicket& ticket : tickets_)
        for (ProcessTrace& trace : ticket.processes)
            if (trace.pid == pid && unfinished(trace)) return {&ticket, &trace};
    return {};
}

std::vector<const LiveProcess*> LiveJobs::trainers(const TraceTarget& target) const {
    std::vector<const LiveProcess*> matched;
    for (const auto& [pid, process] : processes_)
        if (target.matches(process)) matched.push_back(&process);
    // A launcher imports torch and polls too (torchrun's agent), and so may
    // a DataLoader's spawned workers: the ranks when there are any, else the
    // process named itself when it polls.
    // Keeps those `wanted` when there are any; false when there are none.
    const auto keepIfAny = [&matched](auto wanted) {
        if (std::none_of(matched.begin(), matched.end(), wanted)) return false;
        matched.erase(std::remove_if(matched.begin(), matched.end(),
                                     [&](const LiveProcess* p) { return !wanted(p); }),
                      matched.end());
        return true;
    };
    if (!keepIfAny([](const LiveProcess* p) { return p->rank >= 0; }))
        keepIfAny([&target](const LiveProcess* p) { return p->pid == target.pid; });
    return matched;
}

int LiveJobs::trace(const TraceTarget& target, const TraceRequest& request,
                    const std::string& out_dir, Clock::time_point now, std::string& error) {
    error = checkTraceRequest(request);
    if (!error.empty()) return 0;
    std::vector<const LiveProcess*> chosen = trainers(target);
    if (chosen.empty()) {
        error = target.pid != 0
                    ? "neither pid " + std::to_string(target.pid) + " nor a child of it has polled"
                    : "no process of job \"" + target.job + "\" has polled";
        return 0;
    }
    for (const LiveProcess* process : chosen)
        if (pendingTraceOf(process->pid).trace != nullptr) {
            error = "pid " + std::to_string(process->pid) + " is already being traced";
            return 0;
        }
    TraceTicket ticket;
    ticket.id = next_ticket_++;
    ticket.job = chosen.front()->job;
    ticket.request = request;
    ticket.out_dir = out_dir;
    ticket.asked_at = now;
    ticket.stamp = localTimeStamp();
    std::sort(chosen.begin(), chosen.end(), [](const LiveProcess* a, const LiveProcess* b) {
        return std::make_pair(a->rank, a->pid) < std::make_pair(b->rank, b->pid);
    });
    for (const LiveProcess* process : chosen) {
        ProcessTrace trace;
        trace.pid = process->pid;
        trace.rank = process->rank;
        trace.log_file = process->trace_dir + "trainscope_" + std::to_string(::getpid()) + "_" +
                         std::to_string(ticket.id) + ".json";
        trace.written = tracePathOfProcess(trace.log_file, process->pid);
        trace.message = "waiting for its next poll (every 5 s)";
        ticket.processes.push_back(trace);
    }
    ticket.output = unusedOutput(ticket);
    tickets_.push_back(ticket);
    return ticket.id;
}

void LiveJobs::advance(TraceTicket& ticket, ProcessTrace& trace, Clock::time_point now) {
    if (trace.phase == TracePhase::WaitingForPoll) {
        if (!settings_.alive(trace.pid))
            fail(trace, "it exited before it polled again");
        else if (now - ticket.asked_at > settings_.poll_timeout)
            fail(trace, "it did not poll in " + seconds(now - ticket.asked_at) +
                            (trace.message.find("busy") != std::string::npos
                                 ? ": its profiler stayed busy (its own torch.profiler?)"
                                 : ""));
        return;
    }
    checkAskedTrace(ticket, trace, settings_.alive(trace.pid), now, settings_.write_timeout);
}

void LiveJobs::tick(Clock::time_point now) {
    for (TraceTicket& ticket : tickets_)
        for (ProcessTrace& trace : ticket.processes)
            if (unfinished(trace)) advance(ticket, trace, now);
    for (auto it = processes_.begin(); it != processes_.end();) {
        if (now - it->second.last_poll > settings_.keep_alive &&
            pendingTraceOf(it->first).trace == nullptr)
            it = processes_.erase(it);
        else
            ++it;
    }
}

std::vector<LiveProcess> LiveJobs::processes() const {
    std::vector<LiveProcess> list;
    for (const auto& [pid, process] : processes_)
        list.push_back(process);
    std::sort(list.begin(), list.end(), [](const LiveProcess& a, const LiveProcess& b) {
        return std::tie(a.job, a.rank, a.pid) < std::tie(b.job, b.rank, b.pid);
    });
    return list;
}

std::vector<TraceTicket> LiveJobs::tickets() const {
    return tickets_;
}

std::optional<TraceTicket> LiveJobs::ticket(int id) const {
    for (const TraceTicket& ticket : tickets_)
        if (ticket.id == id) return ticket;
    return std::nullopt;
}

} // namespace ts::ondemand
