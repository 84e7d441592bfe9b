#include "ondemand/OnDemandDaemon.h"

#include <unistd.h>

namespace ts::ondemand {

namespace {

// How often the socket wait wakes to look for written traces and stop requests.
constexpr int kWakeMs = 100;

} // namespace

LiveJobs::Settings defaultDaemonSettings() {
    LiveJobs::Settings settings;
    settings.uid = ::getuid();
    return settings;
}

OnDemandDaemon::Started OnDemandDaemon::start(LiveJobs::Settings settings) {
    return serve(DaemonSocket::bindKinetoDaemon(), std::move(settings));
}

OnDemandDaemon::Started OnDemandDaemon::start(LiveJobs::Settings settings, const std::string& name,
                                              const std::string& socket_dir) {
    return serve(DaemonSocket::bind(name, socket_dir), std::move(settings));
}

OnDemandDaemon::Started OnDemandDaemon::serve(DaemonSocket::Bound bound,
                                              LiveJobs::Settings settings) {
    Started started;
    started.error = bound.error;
    started.holder_pid = bound.holder_pid;
    started.holder_command = bound.holder_command;
    if (bound.socket)
        started.daemon.reset(new OnDemandDaemon(std::move(bound.socket), std::move(settings)));
    return started;
}

OnDemandDaemon::OnDemandDaemon(std::unique_ptr<DaemonSocket> socket, LiveJobs::Settings settings)
    : socket_(std::move(socket)), jobs_(std::move(settings)) {
    thread_ = std::thread([this] { loop(); });
}

OnDemandDaemon::~OnDemandDaemon() {
    stopping_ = true;
    thread_.join();
}

void OnDemandDaemon::loop() {
    auto last_tick = Clock::now();
    while (!stopping_) {
        std::optional<Datagram> datagram = socket_->receive(kWakeMs);
        const auto now = Clock::now();
        std::optional<std::string> reply;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (datagram) reply = jobs_.receive(*datagram, now);
            if (now - last_tick >= std::chrono::milliseconds(kWakeMs)) {
                jobs_.tick(now);
                last_tick = now;
            }
        }
        if (reply) socket_->send(datagram->sender, *reply);
    }
}

std::vector<LiveProcess> OnDemandDaemon::processes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return jobs_.processes();
}

std::vector<TraceTicket> OnDemandDaemon::tickets() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return jobs_.tickets();
}

std::optional<TraceTicket> OnDemandDaemon::ticket(int id) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return jobs_.ticket(id);
}

DaemonCounters OnDemandDaemon::counters() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return jobs_.counters();
}

int OnDemandDaemon::trace(const TraceTarget& target, const TraceRequest& request,
                          const std::string& out_dir, std::string& error) {
    std::lock_guard<std::mutex> lock(mutex_);
    return jobs_.trace(target, request, out_dir, Clock::now(), error);
}

} // namespace ts::ondemand
