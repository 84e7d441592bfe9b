// The on-demand daemon's reading of what other processes send it
// (ondemand/IpcWire.h, ondemand/LiveJobs.h, and dynolog's replies in
// ondemand/DynologClient.h): the input as one datagram, or
// cut at 0x1e into several from one sender. Whatever the bytes, parsing says
// why it refused or gives a message that encodes back to the same bytes; the
// daemon's state takes each datagram, answers a well-formed poll with a reply
// that decodes, and a trace asked of a process that polled is handed as a
// config naming its log file, then given up on when the process is gone.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "FuzzSupport.h"
#include "ondemand/DynologClient.h"
#include "ondemand/IpcWire.h"
#include "ondemand/LiveJobs.h"

namespace {

using namespace ts::ondemand;
constexpr unsigned kUser = 1000;

LiveJobs::Settings fakeMachine() {
    LiveJobs::Settings settings;
    settings.uid = kUser;
    settings.process_info = [](int pid) {
        return ProcessInfo{pid, "python train.py", "python", kUser};
    };
    settings.environment = [](int) { return std::map<std::string, std::string>{{"RANK", "0"}}; };
    settings.alive = [](int) { return false; };
    return settings;
}

// Parsing: a refusal has a reason; what it accepts encodes to the same bytes.
void checkParse(const std::string& bytes, const ParsedDatagram& parsed) {
    if (!parsed.ok) {
        if (parsed.error.empty()) ts::fuzz::propertyBroken("a refusal without a reason");
        return;
    }
    const std::string again = std::holds_alternative<PollRequest>(parsed.message)
                                  ? encodePollRequest(std::get<PollRequest>(parsed.message))
                                  : encodeContextRequest(std::get<ContextRequest>(parsed.message));
    // The type name's bytes after its NUL are not kept.
    if (again.size() != bytes.size() ||
        again.compare(kHeaderSize, std::string::npos, bytes, kHeaderSize, std::string::npos) != 0)
        ts::fuzz::propertyBroken("an accepted datagram does not encode back to its bytes");
}

// The sender the kernel would name: the pid the datagram claims (so that
// well-formed polls reach the daemon's state), this user.
Datagram fromSender(const std::string& bytes, const ParsedDatagram& parsed) {
    Datagram datagram;
    datagram.bytes = bytes;
    int pid = 1;
    if (parsed.ok && std::holds_alternative<PollRequest>(parsed.message))
        pid = std::get<PollRequest>(parsed.message).pids.front();
    datagram.credentials = Credentials{pid, kUser, kUser};
    return datagram;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    LiveJobs jobs(fakeMachine());
    auto now = Clock::now();
    for (const std::string& bytes : ts::fuzz::splitInput(data, size, '\x1e', 8)) {
        const ParsedDatagram parsed = parseDatagram(bytes);
        checkParse(bytes, parsed);
        const DynologReply dynolog = parseDynologReply(bytes);
        if (dynolog.ok != dynolog.error.empty())
            ts::fuzz::propertyBroken("dynolog's reply read without a verdict or with two");
        const std::optional<std::string> reply = jobs.receive(fromSender(bytes, parsed), now);
        const bool poll = parsed.ok && std::holds_alternative<PollRequest>(parsed.message);
        std::string config;
        if (poll && !(reply && decodeConfigReply(*reply, config)))
            ts::fuzz::propertyBroken("a poll of this user's process got no config reply");
        if (!parsed.ok && reply) ts::fuzz::propertyBroken("a malformed datagram was answered");
        if (poll && jobs.tickets().empty()) {
            std::string error;
            const int pid = std::get<PollRequest>(parsed.message).pids.front();
            if (jobs.trace({pid, ""}, TraceRequest{}, "/nonexistent/out", now, error) == 0)
                ts::fuzz::propertyBroken("a process that polled cannot be traced: " + error);
        } else if (poll && config.find("ACTIVITIES_LOG_FILE=/tmp/trainscope_") == 0) {
            // Handed: the next tick finds the process gone and says so.
            now += std::chrono::seconds(1);
            jobs.tick(now);
            for (const TraceTicket& ticket : jobs.tickets())
                if (!ticket.finished()) ts::fuzz::propertyBroken("a gone process's trace lingers");
        }
        now += std::chrono::seconds(1);
    }
    jobs.tick(now + std::chrono::minutes(2));
    return 0;
}
