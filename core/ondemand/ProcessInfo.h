#pragma once
// What /proc says of a local process: its command line, user, environment
// (only a process of the same user lets another read it) and whether it is
// still alive. Everything is read, nothing assumed: a process that exited
// gives empty fields.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ts::ondemand {

struct ProcessInfo {
    int pid = 0;
    std::string command_line; // arguments joined by spaces (empty: exited or unreadable)
    std::string command;      // /proc/PID/comm
    std::optional<unsigned> uid;
};

ProcessInfo readProcessInfo(int pid);
// The variables of `pid`'s environment named in `names` that are set.
std::map<std::string, std::string> readEnvironment(int pid, const std::vector<std::string>& names);
bool processAlive(int pid);
// Whether `pid` has child processes (a launcher's ranks may poll after it).
bool hasChildren(int pid);
// The login name of `uid` (its number when it has none).
std::string userName(unsigned uid);

// Which process holds the Unix socket whose /proc/net/unix path is `path`
// ("@dynolog@" for the abstract name with its trailing NUL): 0 when none, or
// when it belongs to a user whose descriptors cannot be read.
int unixSocketHolder(const std::string& path);

} // namespace ts::ondemand
