#include "ondemand/DaemonSocket.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "ondemand/ProcessInfo.h"

namespace ts::ondemand {

namespace {

constexpr char kKinetoDaemonName[] = "dynolog";
// Larger than any datagram libkineto sends (a poll is 40 + 16 + 4 per pid).
constexpr size_t kMaxDatagram = 64 * 1024;
// libkineto polls for a reply 5 times, 10 ms apart.
constexpr int kSendRetries = 8;
constexpr auto kSendRetryWait = std::chrono::milliseconds(3);

std::string errorText(int error_number) {
    return std::strerror(error_number);
}

// What /proc/net/unix shows for our name (the abstract one with its NULs as @).
std::string procNetPath(const std::string& address) {
    std::string path = address.substr(offsetof(sockaddr_un, sun_path));
    if (!path.empty() && path.front() == '\0') {
        for (char& c : path)
            if (c == '\0') c = '@';
    } else {
        path = path.c_str();
    }
    return path;
}

// Is anyone reading the socket file `path`? A connect says: refused when the
// file is left over from a process that is gone.
bool socketFileInUse(const std::string& address) {
    const int probe = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (probe < 0) return false;
    const int rc = ::connect(probe, reinterpret_cast<const sockaddr*>(address.data()),
                             static_cast<socklen_t>(address.size()));
    ::close(probe);
    return rc == 0;
}

DaemonSocket::Bound bindFailure(std::string error) {
    DaemonSocket::Bound bound;
    bound.error = std::move(error);
    return bound;
}

DaemonSocket::Bound taken(const std::string& where, const std::string& address) {
    DaemonSocket::Bound bound;
    bound.holder_pid = unixSocketHolder(procNetPath(address));
    if (bound.holder_pid > 0) {
        const ProcessInfo holder = readProcessInfo(bound.holder_pid);
        bound.holder_command = holder.command;
        bound.error = where + " is taken by " + holder.command + " (pid " +
                      std::to_string(bound.holder_pid) + ": " + holder.command_line + ")";
    } else {
        bound.error = where + " is taken by a process this user cannot see (another user's, "
                              "or another container's)";
    }
    return bound;
}

} // namespace

std::string kinetoSocketAddress(const std::string& name, const std::string& socket_dir) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    size_t length = 0;
    if (socket_dir.empty()) {
        // libkineto's name is NUL, the name, NUL: the trailing NUL is part of it.
        length = std::min(name.size(), sizeof(address.sun_path) - 2);
        std::memcpy(address.sun_path + 1, name.data(), length);
        length += 2;
    } else {
        const std::string path = socket_dir + "/" + name;
        length = std::min(path.size(), sizeof(address.sun_path) - 1);
        std::memcpy(address.sun_path, path.data(), length);
        length += 1;
    }
    return std::string(reinterpret_cast<const char*>(&address),
                       offsetof(sockaddr_un, sun_path) + length);
}

DaemonSocket::DaemonSocket(int fd, std::string where, std::string file)
    : fd_(fd), where_(std::move(where)), file_(std::move(file)) {}

DaemonSocket::~DaemonSocket() {
    ::close(fd_);
    if (!file_.empty()) ::unlink(file_.c_str());
}

DaemonSocket::Bound DaemonSocket::bind(const std::string& name, const std::string& socket_dir) {
    const std::string address = kinetoSocketAddress(name, socket_dir);
    const std::string file = socket_dir.empty() ? std::string() : socket_dir + "/" + name;
    const std::string where =
        file.empty() ? "the abstract socket @" + name : "the socket file " + file;
    const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return bindFailure("cannot open a Unix datagram socket (" + errorText(errno) + ")");
    const int on = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof(on));
    if (!file.empty() && !socketFileInUse(address)) ::unlink(file.c_str());
    if (::bind(fd, reinterpret_cast<const sockaddr*>(address.data()),
               static_cast<socklen_t>(address.size())) != 0) {
        const int error = errno;
        ::close(fd);
        if (error == EADDRINUSE) return taken(where, address);
        return bindFailure("cannot bind " + where + " (" + errorText(error) + ")");
    }
    Bound bound;
    bound.socket.reset(new DaemonSocket(fd, where, file));
    return bound;
}

DaemonSocket::Bound DaemonSocket::bindKinetoDaemon() {
    const char* dir = std::getenv("KINETO_IPC_SOCKET_DIR");
    return bind(kKinetoDaemonName, dir != nullptr ? dir : "");
}

std::optional<Datagram> DaemonSocket::receive(int timeout_ms) {
    pollfd waiting{fd_, POLLIN, 0};
    if (::poll(&waiting, 1, timeout_ms) <= 0) return std::nullopt;
    Datagram datagram;
    datagram.bytes.resize(kMaxDatagram);
    sockaddr_un sender{};
    iovec part{datagram.bytes.data(), datagram.bytes.size()};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(ucred))];
    msghdr header{};
    header.msg_name = &sender;
    header.msg_namelen = sizeof(sender);
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof(control);
    const ssize_t got = ::recvmsg(fd_, &header, MSG_DONTWAIT);
    if (got < 0) return std::nullopt;
    datagram.bytes.resize(static_cast<size_t>(got));
    datagram.truncated = (header.msg_flags & MSG_TRUNC) != 0;
    datagram.sender.assign(reinterpret_cast<const char*>(&sender), header.msg_namelen);
    for (cmsghdr* item = CMSG_FIRSTHDR(&header); item != nullptr;
         item = CMSG_NXTHDR(&header, item)) {
        if (item->cmsg_level != SOL_SOCKET || item->cmsg_type != SCM_CREDENTIALS) continue;
        ucred credentials{};
        std::memcpy(&credentials, CMSG_DATA(item), sizeof(credentials));
        datagram.credentials = Credentials{credentials.pid, credentials.uid, credentials.gid};
    }
    return datagram;
}

bool DaemonSocket::send(const std::string& address, std::string_view bytes) {
    if (address.size() <= offsetof(sockaddr_un, sun_path)) return false; // an unnamed sender
    for (int attempt = 0; attempt < kSendRetries; ++attempt) {
        const ssize_t sent = ::sendto(fd_, bytes.data(), bytes.size(), MSG_DONTWAIT,
                                      reinterpret_cast<const sockaddr*>(address.data()),
                                      static_cast<socklen_t>(address.size()));
        if (sent == static_cast<ssize_t>(bytes.size())) return true;
        if (sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return false;
        std::this_thread::sleep_for(kSendRetryWait);
    }
    return false;
}

} // namespace ts::ondemand
