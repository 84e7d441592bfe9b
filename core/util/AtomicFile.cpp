#include "util/AtomicFile.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <system_error>

#include "util/ErrorText.h"
#include "util/FileDescriptor.h"

namespace ts {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTempMarker = ".tmp-";

fs::path namedTemp(const fs::path& path) {
    auto tmp = path;
    tmp += kTempMarker + std::to_string(::getpid());
    return tmp;
}

// The classic way, where the file system has no unnamed files: a named
// temporary renamed over `path` (a kill mid-write leaves the temporary).
void writeThroughNamedTemp(const fs::path& path,
                           const std::function<void(const fs::path& tmp)>& write) {
    const fs::path tmp = namedTemp(path);
    try {
        write(tmp);
        fs::rename(tmp, path);
    } catch (...) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        throw;
    }
}

} // namespace

void writeAtomically(const fs::path& path, const std::function<void(const fs::path& tmp)>& write) {
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    // An unnamed file in the target directory (O_TMPFILE): until it is whole
    // it has no name, so a process killed mid-write leaves nothing behind.
    const FileDescriptor file(::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666));
    if (file.get() < 0) {
        if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)
            return writeThroughNamedTemp(path, write);
        throw std::system_error(errno, std::generic_category(),
                                path.string() + ": cannot write in " + dir.string());
    }
    const fs::path unnamed = "/proc/self/fd/" + std::to_string(file.get());
    write(unnamed); // writers reopen the unnamed file through its /proc link
    // linkat cannot replace a file: the whole file gets a temporary name for
    // the instant before the rename that puts it in place.
    const fs::path tmp = namedTemp(path);
    std::error_code ignored;
    fs::remove(tmp, ignored);
    if (::linkat(AT_FDCWD, unnamed.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) != 0)
        throw std::system_error(errno, std::generic_category(), path.string() + ": cannot write");
    std::error_code renamed;
    fs::rename(tmp, path, renamed);
    if (renamed) {
        fs::remove(tmp, ignored);
        throw std::system_error(renamed, path.string() + ": cannot write");
    }
}

void writeFileAtomically(const fs::path& path, const std::string& contents) {
    writeAtomically(path, [&](const fs::path& tmp) {
        errno = 0;
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << contents;
        out.close();
        if (!out) throw std::runtime_error(writeError(path.string(), errno));
    });
}

int removeStaleTempFiles(const fs::path& dir) {
    int removed = 0;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(dir, error)) {
        const std::string name = entry.path().filename().string();
        const auto marker = name.rfind(kTempMarker);
        if (marker == std::string::npos || marker == 0) continue;
        const std::string digits = name.substr(marker + std::string(kTempMarker).size());
        char* end = nullptr;
        const long pid = std::strtol(digits.c_str(), &end, 10);
        if (digits.empty() || *end != '\0' || pid <= 0) continue;
        // A live writer (this process, or another still running) keeps its own.
        if (pid == ::getpid() || ::kill(pid_t(pid), 0) == 0 || errno == EPERM) continue;
        if (fs::remove(entry.path(), error)) ++removed;
    }
    return removed;
}

std::optional<std::string> readWholeFile(const std::filesystem::path& path) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                         &std::fclose);
    if (!file) return std::nullopt;
    std::string bytes;
    char buffer[1 << 16];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0)
        bytes.append(buffer, n);
    if (std::ferror(file.get())) return std::nullopt;
    return bytes;
}

} // namespace ts
