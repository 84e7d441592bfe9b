#include "ondemand/DynologClient.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <thread>

#include <nlohmann/json.hpp>

#include "ondemand/ProcessInfo.h"
#include "ondemand/TraceFiles.h"
#include "util/LocalTimeStamp.h"

namespace ts::ondemand {

namespace {

// Reads exactly `size` bytes before `deadline`; false on a closed or silent peer.
bool readExactly(int fd, char* into, size_t size, Clock::time_point deadline) {
    while (size > 0) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        pollfd waiting{fd, POLLIN, 0};
        if (left.count() <= 0 || ::poll(&waiting, 1, static_cast<int>(left.count())) <= 0)
            return false;
        const ssize_t got = ::recv(fd, into, size, 0);
        if (got <= 0) return false;
        into += got;
        size -= static_cast<size_t>(got);
    }
    return true;
}

DynologReply dynologFailure(std::string error) {
    DynologReply reply;
    reply.error = std::move(error);
    return reply;
}

// Largest reply read: a list of pids and counts.
constexpr int32_t kMaxReply = 1 << 20;

} // namespace

std::string encodeDynologRequest(const DynologRequest& request) {
    const std::string json = nlohmann::json{
        {"fn", "setKinetOnDemandRequest"},
        {"config", request.config},
        {"job_id", request.job_id},
        {"pids", request.pids},
        {"process_limit",
         request.process_limit}}.dump();
    const int32_t size = static_cast<int32_t>(json.size());
    std::string bytes(sizeof(size), '\0');
    std::memcpy(bytes.data(), &size, sizeof(size));
    return bytes + json;
}

DynologReply parseDynologReply(const std::string& json_text) {
    const nlohmann::json reply = nlohmann::json::parse(json_text, nullptr, false);
    if (!reply.is_object()) return dynologFailure("dynolog's reply is not a JSON object");
    if (reply.contains("status") && reply["status"].is_string())
        return dynologFailure("dynolog refused the request: " + reply["status"].get<std::string>());
    auto pids = [&reply](const char* key, std::vector<int>& into) {
        const auto it = reply.find(key);
        if (it == reply.end() || !it->is_array()) return false;
        for (const auto& pid : *it)
            if (pid.is_number_integer()) into.push_back(pid.get<int>());
        return true;
    };
    DynologReply parsed;
    if (!pids("processesMatched", parsed.matched) ||
        !pids("activityProfilersTriggered", parsed.triggered))
        return dynologFailure(
            "dynolog's reply lacks processesMatched or activityProfilersTriggered");
    const auto busy = reply.find("activityProfilersBusy");
    parsed.busy = busy != reply.end() && busy->is_number_integer() ? busy->get<int>() : 0;
    parsed.ok = true;
    return parsed;
}

DynologReply askDynolog(const DynologRequest& request, int port,
                        std::chrono::milliseconds timeout) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return dynologFailure("cannot open a TCP socket (" + std::string(std::strerror(errno)) +
                              ")");
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const std::string where = "dynolog on localhost:" + std::to_string(port);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
        const int error = errno;
        ::close(fd);
        return dynologFailure("cannot reach " + where + " (" + std::strerror(error) + ")");
    }
    const std::string bytes = encodeDynologRequest(request);
    const auto deadline = Clock::now() + timeout;
    int32_t size = 0;
    std::string json;
    const bool sent =
        ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
    const bool read = sent &&
                      readExactly(fd, reinterpret_cast<char*>(&size), sizeof(size), deadline) &&
                      size > 0 && size <= kMaxReply &&
                      (json.resize(static_cast<size_t>(size)),
                       readExactly(fd, json.data(), json.size(), deadline));
    ::close(fd);
    if (!read) return dynologFailure(where + " did not answer the request");
    return parseDynologReply(json);
}

TraceTicket traceThroughDynolog(int pid, const TraceRequest& request, const std::string& out_dir,
                                std::chrono::seconds write_timeout,
                                const std::function<void(const std::string&)>& progress, int port) {
    TraceTicket ticket;
    ticket.id = 1;
    ticket.job = "pid " + std::to_string(pid) + " (through dynolog)";
    ticket.request = request;
    ticket.out_dir = out_dir;
    ticket.stamp = localTimeStamp();
    ticket.asked_at = Clock::now();
    const std::string log_file =
        onDemandTraceDir(readEnvironment(pid, {"KINETO_ONDEMAND_TRACE_DIR"})) + "trainscope_" +
        std::to_string(::getpid()) + "_dynolog_" + ticket.stamp + ".json";
    DynologRequest ask;
    ask.config = kinetoConfig(request, log_file);
    ask.pids = {pid};
    const DynologReply reply = askDynolog(ask, port);
    ProcessTrace failure;
    failure.pid = pid;
    failure.phase = TracePhase::Failed;
    if (!reply.ok || reply.triggered.empty()) {
        failure.message = !reply.ok ? reply.error
                          : reply.matched.empty()
                              ? "dynolog knows no process " + std::to_string(pid) +
                                    " (was it started with KINETO_USE_DAEMON=1?)"
                              : "dynolog says its profiler is busy (its own torch.profiler, or "
                                "another trace)";
        ticket.processes.push_back(failure);
        return ticket;
    }
    for (int traced : reply.triggered) {
        ProcessTrace trace;
        trace.pid = traced;
        trace.phase = TracePhase::Handed;
        trace.log_file = log_file;
        trace.written = tracePathOfProcess(log_file, traced);
        trace.handed_at = ticket.asked_at;
        trace.message = "asked through dynolog; waiting for " + trace.written;
        ticket.processes.push_back(trace);
        progress("pid " + std::to_string(traced) + ": " + trace.message);
    }
    ticket.output = unusedOutput(ticket);
    while (!ticket.finished()) {
        for (ProcessTrace& trace : ticket.processes) {
            if (trace.phase != TracePhase::Handed) continue;
            checkAskedTrace(ticket, trace, processAlive(trace.pid), Clock::now(), write_timeout);
            if (trace.phase != TracePhase::Handed)
                progress("pid " + std::to_string(trace.pid) + ": " + trace.message);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return ticket;
}

} // namespace ts::ondemand
