#include "ondemand/ProcessInfo.h"

#include "util/ProcessMemory.h"

#include <pwd.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace ts::ondemand {

namespace {

std::string readWhole(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The inode of the socket whose /proc/net/unix path is `path`.
std::string socketInode(const std::string& path) {
    std::istringstream table(readWhole("/proc/net/unix"));
    std::string line;
    std::getline(table, line); // the header
    while (std::getline(table, line)) {
        std::istringstream fields(line);
        std::string num, refs, protocol, flags, type, state, inode, name;
        if (fields >> num >> refs >> protocol >> flags >> type >> state >> inode >> name &&
            name == path)
            return inode;
    }
    return {};
}

} // namespace

ProcessInfo readProcessInfo(int pid) {
    ProcessInfo info;
    info.pid = pid;
    const std::string dir = "/proc/" + std::to_string(pid);
    std::string arguments = readWhole(dir + "/cmdline");
    while (!arguments.empty() && arguments.back() == '\0')
        arguments.pop_back();
    for (char& c : arguments)
        if (c == '\0') c = ' ';
    info.command_line = arguments;
    info.command = readWhole(dir + "/comm");
    while (!info.command.empty() && info.command.back() == '\n')
        info.command.pop_back();
    // The real uid, the first of the line's four.
    if (const auto uid = procNumber("/proc/" + std::to_string(pid) + "/status", "Uid:"))
        info.uid = static_cast<unsigned>(*uid);
    return info;
}

std::map<std::string, std::string> readEnvironment(int pid, const std::vector<std::string>& names) {
    std::map<std::string, std::string> found;
    const std::string environment = readWhole("/proc/" + std::to_string(pid) + "/environ");
    size_t start = 0;
    while (start < environment.size()) {
        size_t end = environment.find('\0', start);
        if (end == std::string::npos) end = environment.size();
        const std::string entry = environment.substr(start, end - start);
        const size_t equals = entry.find('=');
        if (equals != std::string::npos)
            for (const std::string& name : names)
                if (entry.compare(0, equals, name) == 0 && name.size() == equals)
                    found[name] = entry.substr(equals + 1);
        start = end + 1;
    }
    return found;
}

bool processAlive(int pid) {
    if (pid <= 0) return false;
    if (::kill(pid, 0) == 0) return true;
    return errno == EPERM; // alive, another user's
}

bool hasChildren(int pid) {
    std::error_code error;
    const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
    for (const auto& task : std::filesystem::directory_iterator(tasks, error)) {
        std::ifstream children(task.path() / "children");
        std::string first;
        if (children >> first) return true;
    }
    return false;
}

std::string userName(unsigned uid) {
    const passwd* entry = ::getpwuid(uid);
    return entry != nullptr && entry->pw_name != nullptr ? entry->pw_name : std::to_string(uid);
}

int unixSocketHolder(const std::string& path) {
    const std::string inode = socketInode(path);
    if (inode.empty()) return 0;
    const std::string target = "socket:[" + inode + "]";
    std::error_code error;
    for (const auto& process : std::filesystem::directory_iterator("/proc", error)) {
        const std::string name = process.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::error_code fd_error;
        for (const auto& fd :
             std::filesystem::directory_iterator(process.path() / "fd", fd_error)) {
            std::error_code link_error;
            if (std::filesystem::read_symlink(fd.path(), link_error).string() == target)
                return std::stoi(name);
        }
    }
    return 0;
}

} // namespace ts::ondemand
