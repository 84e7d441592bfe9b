#pragma once
// The daemon's end of Kineto's IPC fabric: a Unix datagram socket bound to the
// abstract name "dynolog" (the name libkineto sends its polls to), or to the
// file `$KINETO_IPC_SOCKET_DIR/dynolog` where that is set, as it is for
// libkineto. The kernel attaches each sender's credentials (SO_PASSCRED), so
// the daemon knows who sent a datagram without trusting what it claims.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace ts::ondemand {

// Who sent a datagram, as the kernel says (not as the sender claims).
struct Credentials {
    int pid = 0;
    unsigned uid = 0;
    unsigned gid = 0;
};

struct Datagram {
    std::string bytes;
    std::string sender; // the sender's socket address, opaque: send() replies to it
    std::optional<Credentials> credentials;
    bool truncated = false; // larger than the largest datagram read
};

class DaemonSocket {
public:
    ~DaemonSocket();
    DaemonSocket(const DaemonSocket&) = delete;
    DaemonSocket& operator=(const DaemonSocket&) = delete;

    struct Bound {
        std::unique_ptr<DaemonSocket> socket;
        // Why there is none: the name is taken (saying by whom, when this
        // user may know it), or the socket call failed.
        std::string error;
        // The name is held by a process (pid, command) when it could be found.
        int holder_pid = 0;
        std::string holder_command;
    };
    // Binds the socket libkineto sends to (`name`: "dynolog"; tests give
    // another). `socket_dir`: $KINETO_IPC_SOCKET_DIR (empty: the abstract
    // namespace).
    static Bound bind(const std::string& name, const std::string& socket_dir);
    // bind() with libkineto's name and the environment's directory.
    static Bound bindKinetoDaemon();

    // The next datagram, waiting up to `timeout_ms`; nullopt when none came.
    std::optional<Datagram> receive(int timeout_ms);
    // Sends `bytes` to `address` (a Datagram's sender); false when the sender
    // is gone or does not read (a few quick retries: libkineto waits ~50 ms
    // for a reply).
    bool send(const std::string& address, std::string_view bytes);
    // "the abstract socket @dynolog" or the socket file's path.
    const std::string& where() const { return where_; }

private:
    DaemonSocket(int fd, std::string where, std::string file);
    int fd_;
    std::string where_;
    std::string file_; // the socket file to remove (empty for the abstract namespace)
};

// The address libkineto gives a socket named `name` (a NUL, the name and a
// NUL in the abstract namespace; `dir/name` in `socket_dir`), as raw bytes of
// a sockaddr_un: for tests and the benchmark's stand-in process.
std::string kinetoSocketAddress(const std::string& name, const std::string& socket_dir);

} // namespace ts::ondemand
