#pragma once
// Trainscope as Kineto's on-demand daemon: the socket libkineto polls, served
// on a thread of its own, answering each poll at once (libkineto waits ~50
// ms), with the live jobs and the traces asked of them behind a lock. The GUI
// and the CLI own one each while they show jobs or trace one; a second one on
// the machine finds the socket taken and says by whom.
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ondemand/DaemonSocket.h"
#include "ondemand/LiveJobs.h"

namespace ts::ondemand {

class OnDemandDaemon {
public:
    struct Started {
        std::unique_ptr<OnDemandDaemon> daemon;
        std::string error; // why none: the socket is taken (by whom) or failed
        int holder_pid = 0;
        std::string holder_command; // "dynolog" when dynolog holds it
    };
    // Binds libkineto's socket ("dynolog", in $KINETO_IPC_SOCKET_DIR when
    // set) and serves it; `settings.uid` defaults to this process's user.
    static Started start(LiveJobs::Settings settings);
    // The same on another socket name (tests, the benchmark).
    static Started start(LiveJobs::Settings settings, const std::string& name,
                         const std::string& socket_dir);
    ~OnDemandDaemon();
    OnDemandDaemon(const OnDemandDaemon&) = delete;
    OnDemandDaemon& operator=(const OnDemandDaemon&) = delete;

    std::vector<LiveProcess> processes() const;
    std::vector<TraceTicket> tickets() const;
    std::optional<TraceTicket> ticket(int id) const;
    DaemonCounters counters() const;
    int trace(const TraceTarget& target, const TraceRequest& request, const std::string& out_dir,
              std::string& error);
    const std::string& where() const { return socket_->where(); }

private:
    OnDemandDaemon(std::unique_ptr<DaemonSocket> socket, LiveJobs::Settings settings);
    // A daemon on `bound`'s socket, or why there is none.
    static Started serve(DaemonSocket::Bound bound, LiveJobs::Settings settings);
    void loop();

    std::unique_ptr<DaemonSocket> socket_;
    mutable std::mutex mutex_;
    LiveJobs jobs_;
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

// The user's own settings: this process's uid, the default timeouts.
LiveJobs::Settings defaultDaemonSettings();

} // namespace ts::ondemand
