#pragma once
// A stand-in for libkineto's IpcFabricConfigClient, for the tests of the
// on-demand daemon (torch-free and GUI): a datagram socket with a name of its
// own that sends what a PyTorch process started with KINETO_USE_DAEMON=1
// sends, and waits ~50 ms for the reply as libkineto does.
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>

#include "ondemand/DaemonSocket.h"
#include "ondemand/IpcWire.h"

namespace ts::testing {

// A socket name of this test process's own, so tests never meet a real dynolog.
inline std::string daemonTestName(const std::string& what) {
    return "trainscope-test-" + what + "-" + std::to_string(::getpid());
}

class KinetoClient {
public:
    // Binds `name` (abstract, or in `dir` when given).
    KinetoClient(const std::string& name, const std::string& dir) : dir_(dir) {
        fd_ = ::socket(AF_UNIX, SOCK_DGRAM, 0);
        const std::string address = ondemand::kinetoSocketAddress(name, dir);
        if (!dir.empty()) ::unlink((dir + "/" + name).c_str());
        bound_ = ::bind(fd_, reinterpret_cast<const sockaddr*>(address.data()),
                        static_cast<socklen_t>(address.size())) == 0;
    }
    ~KinetoClient() { ::close(fd_); }
    KinetoClient(const KinetoClient&) = delete;
    KinetoClient& operator=(const KinetoClient&) = delete;

    void send(const std::string& daemon, const std::string& bytes) {
        const std::string address = ondemand::kinetoSocketAddress(daemon, dir_);
        ::sendto(fd_, bytes.data(), bytes.size(), 0,
                 reinterpret_cast<const sockaddr*>(address.data()),
                 static_cast<socklen_t>(address.size()));
    }
    // Sends `bytes` to the daemon named `daemon`; its reply, "" when none in 50 ms.
    std::string ask(const std::string& daemon, const std::string& bytes) {
        send(daemon, bytes);
        pollfd waiting{fd_, POLLIN, 0};
        if (::poll(&waiting, 1, 50) <= 0) return {};
        std::string reply(4096, '\0');
        const ssize_t got = ::recv(fd_, reply.data(), reply.size(), 0);
        reply.resize(got > 0 ? static_cast<size_t>(got) : 0);
        return reply;
    }
    // This process's poll, as libkineto sends it every 5 s (`busy`: its
    // activity profiler is tracing).
    static std::string ownPoll(bool busy = false) {
        return ondemand::encodePollRequest(
            {busy ? ondemand::kConfigEvents : ondemand::kConfigActivities,
             0,
             {::getpid(), ::getppid()}});
    }
    bool bound() const { return bound_; }

private:
    int fd_ = -1;
    bool bound_ = false;
    std::string dir_;
};

} // namespace ts::testing
