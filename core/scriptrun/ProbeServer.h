#pragma once
// The local socket the probes report to: an abstract Unix stream socket (no
// file to leave behind, no path length to outgrow), one connection per rank.
// Connections from another user are refused; a connection's bytes are cut
// into lines, and a line longer than the format allows closes it.
#include <poll.h>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "scriptrun/ProbeWire.h"

namespace ts::scriptrun {

class ProbeServer {
public:
    using LineHandler = std::function<void(size_t connection, std::string_view line)>;
    using ClosedHandler = std::function<void(size_t connection, const std::string& why)>;

    // Throws std::runtime_error when the socket cannot be made.
    ProbeServer();
    ~ProbeServer();
    ProbeServer(const ProbeServer&) = delete;
    ProbeServer& operator=(const ProbeServer&) = delete;

    // The address as the probe's configuration carries it ("\0name").
    const std::string& address() const { return address_; }
    // The descriptors to wait on: the listening one, then each open connection.
    void addPollFds(std::vector<pollfd>& fds) const;
    // After poll(): accepts, reads, and hands on each complete line and each
    // connection that closed (why: empty at end-of-stream, else the error).
    // Connections are numbered from 0 in the order they came.
    void service(const std::vector<pollfd>& fds, const LineHandler& on_line,
                 const ClosedHandler& on_closed);
    // A control line to every open probe (`trace_next`, `snapshot`); a probe
    // that does not read is skipped, never waited for.
    void sendToAll(const std::string& line);
    bool anyOpen() const;

private:
    struct Connection {
        int fd = -1;
        LineSplitter lines;
    };
    void accept();
    void read(size_t index, const LineHandler& on_line, const ClosedHandler& on_closed);
    void close(size_t index, const std::string& why, const ClosedHandler& on_closed);
    int listen_ = -1;
    std::string address_;
    std::vector<Connection> connections_;
};

} // namespace ts::scriptrun
