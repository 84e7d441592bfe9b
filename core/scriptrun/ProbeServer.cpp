#include "scriptrun/ProbeServer.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <stdexcept>

namespace ts::scriptrun {
namespace {

std::string uniqueName() {
    static std::atomic<int> next{0};
    return "trainscope-probe-" + std::to_string(::getpid()) + "-" + std::to_string(next++);
}

bool sameUser(int fd) {
    ucred peer{};
    socklen_t size = sizeof peer;
    return ::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0 && peer.uid == ::getuid();
}

} // namespace

ProbeServer::ProbeServer() {
    listen_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (listen_ < 0)
        throw std::runtime_error(std::string("cannot make the probe's socket: ") +
                                 std::strerror(errno));
    const std::string name = uniqueName();
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path + 1, name.data(), name.size()); // [0] = '\0': abstract
    const auto length = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + name.size());
    if (::bind(listen_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
        ::listen(listen_, 64) != 0) {
        const int error = errno;
        ::close(listen_);
        throw std::runtime_error("cannot listen on the probe's socket @" + name + ": " +
                                 std::strerror(error));
    }
    address_ = std::string(1, '\0') + name;
}

ProbeServer::~ProbeServer() {
    for (auto& c : connections_)
        if (c.fd >= 0) ::close(c.fd);
    ::close(listen_);
}

void ProbeServer::addPollFds(std::vector<pollfd>& fds) const {
    fds.push_back({listen_, POLLIN, 0});
    for (const auto& c : connections_)
        if (c.fd >= 0) fds.push_back({c.fd, POLLIN, 0});
}

void ProbeServer::service(const std::vector<pollfd>& fds, const LineHandler& on_line,
                          const ClosedHandler& on_closed) {
    for (const pollfd& p : fds) {
        if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
        if (p.fd == listen_) {
            accept();
            continue;
        }
        for (size_t i = 0; i < connections_.size(); ++i)
            if (connections_[i].fd == p.fd) read(i, on_line, on_closed);
    }
}

void ProbeServer::accept() {
    for (;;) {
        const int fd = ::accept4(listen_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) return;
        if (!sameUser(fd)) {
            ::close(fd);
            continue;
        }
        connections_.push_back({fd, {}});
    }
}

void ProbeServer::read(size_t index, const LineHandler& on_line, const ClosedHandler& on_closed) {
    char buffer[65536];
    for (;;) {
        const ssize_t got = ::recv(connections_[index].fd, buffer, sizeof buffer, 0);
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            const auto& rest = connections_[index].lines.pending();
            if (!rest.empty()) on_line(index, rest); // the last line without its '\n'
            close(index, got == 0 ? "" : std::strerror(errno), on_closed);
            return;
        }
        try {
            connections_[index].lines.feed({buffer, size_t(got)},
                                           [&](std::string_view line) { on_line(index, line); });
        } catch (const ProbeWireError& e) {
            close(index, e.what(), on_closed);
            return;
        }
    }
}

void ProbeServer::close(size_t index, const std::string& why, const ClosedHandler& on_closed) {
    ::close(connections_[index].fd);
    connections_[index].fd = -1;
    on_closed(index, why);
}

void ProbeServer::sendToAll(const std::string& line) {
    const std::string bytes = line + "\n";
    for (auto& c : connections_)
        if (c.fd >= 0) [[maybe_unused]]
            auto n = ::send(c.fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

bool ProbeServer::anyOpen() const {
    for (const auto& c : connections_)
        if (c.fd >= 0) return true;
    return false;
}

} // namespace ts::scriptrun
