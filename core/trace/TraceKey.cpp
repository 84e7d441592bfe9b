#include "trace/TraceKey.h"

#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/FileDescriptor.h"
#include "util/Hash64.h"

namespace ts {

namespace {

constexpr uint64_t kEndBytes = uint64_t(1) << 20;
constexpr uint64_t kBlockBytes = uint64_t(64) << 10;
constexpr int kBlocks = 62;

bool readAt(int fd, uint64_t offset, uint64_t size, std::vector<char>& buffer) {
    buffer.resize(size);
    uint64_t done = 0;
    while (done < size) {
        const ssize_t got =
            ::pread(fd, buffer.data() + done, size - done, static_cast<off_t>(offset + done));
        if (got <= 0) return false;
        done += static_cast<uint64_t>(got);
    }
    return true;
}

TraceKey statKey(const struct stat& st) {
    TraceKey key;
    key.size = static_cast<uint64_t>(st.st_size);
    key.mtime_ns = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    key.device = static_cast<uint64_t>(st.st_dev);
    key.inode = static_cast<uint64_t>(st.st_ino);
    return key;
}

} // namespace

std::optional<TraceKey> traceStatOf(const std::filesystem::path& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    return statKey(st);
}

std::optional<TraceKey> traceKeyOf(const std::filesystem::path& path) {
    const FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    struct stat st {};
    if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    TraceKey key = statKey(st);
    // (offset, length) of the sampled ranges; small files are hashed whole.
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    if (key.size <= 2 * kEndBytes + kBlocks * kBlockBytes) {
        ranges.emplace_back(0, key.size);
    } else {
        ranges.emplace_back(0, kEndBytes);
        const uint64_t middle = key.size - 2 * kEndBytes - kBlockBytes;
        for (int i = 0; i < kBlocks; ++i)
            ranges.emplace_back(kEndBytes + middle * uint64_t(i) / (kBlocks - 1), kBlockBytes);
        ranges.emplace_back(key.size - kEndBytes, kEndBytes);
    }
    Hash64 low(1), high(2);
    std::vector<char> buffer;
    for (const auto& [offset, length] : ranges) {
        if (!readAt(fd.get(), offset, length, buffer)) return std::nullopt;
        low.add(buffer.data(), buffer.size());
        high.add(buffer.data(), buffer.size());
    }
    key.fingerprint[0] = low.digest();
    key.fingerprint[1] = high.digest();
    return key;
}

} // namespace ts
