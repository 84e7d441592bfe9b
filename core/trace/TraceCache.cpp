#include "trace/TraceCache.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <vector>

#include "trace/ChromeTraceReader.h"
#include "trace/TraceKey.h"
#include "util/AtomicFile.h"
#include "util/ErrorText.h"
#include "util/Hash64.h"

namespace ts {

namespace fs = std::filesystem;

namespace {

constexpr const char* kExtension = ".tsidx";

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

File openFile(const fs::path& path, const char* mode) {
    return File(std::fopen(path.c_str(), mode), &std::fclose);
}

fs::path directoryOf(const TraceCacheSettings& settings) {
    return settings.directory.empty() ? defaultTraceCacheDirectory() : settings.directory;
}

fs::path indexPathFor(const fs::path& trace, const fs::path& directory) {
    std::error_code error;
    fs::path absolute = fs::weakly_canonical(trace, error);
    if (error) absolute = fs::absolute(trace, error);
    Hash64 h(0x7472);
    h.add(absolute.native());
    char name[17];
    std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(h.digest()));
    return directory / (std::string(name) + kExtension);
}

bool isCacheFile(const fs::path& path) {
    const fs::path extension = path.extension();
    if (extension == kExtension) return true;
    for (const char* companion : kTraceCacheCompanions)
        if (extension == companion) return true;
    return false;
}

// The indexes and their companions.
std::vector<fs::directory_entry> indexFiles(const fs::path& directory) {
    std::vector<fs::directory_entry> out;
    std::error_code error;
    for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error))
        if (isCacheFile(it->path()) && it->is_regular_file(error)) out.push_back(*it);
    return out;
}

// Oldest first (by modification time, which a hit refreshes) until the rest
// fit; `keep` (the index just written) stays.
void trim(const fs::path& directory, uint64_t max_total_bytes, const fs::path& keep) {
    std::vector<fs::directory_entry> files = indexFiles(directory);
    std::error_code error;
    uint64_t total = 0;
    for (const auto& f : files)
        total += f.file_size(error);
    if (total <= max_total_bytes) return;
    std::sort(files.begin(), files.end(), [&](const auto& a, const auto& b) {
        return a.last_write_time(error) < b.last_write_time(error);
    });
    for (const auto& f : files) {
        if (total <= max_total_bytes) break;
        if (f.path() == keep) continue;
        const uint64_t size = f.file_size(error);
        if (fs::remove(f.path(), error)) total -= size;
    }
}

} // namespace

fs::path defaultTraceCacheDirectory() {
    if (const char* dir = std::getenv("TRAINSCOPE_CACHE_DIR"); dir && *dir) return dir;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return fs::path(xdg) / "trainscope" / "traces";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".cache" / "trainscope" / "traces";
    return {};
}

Trace openTrace(const fs::path& path, const ReadProgress& progress,
                const TraceCacheSettings& settings, TraceOpening& opening) {
    opening = TraceOpening{};
    opening.trace = path;
    const fs::path directory = directoryOf(settings);
    if (settings.enabled && !directory.empty()) opening.key = traceKeyOf(path);
    if (!opening.key || opening.key->size < settings.min_trace_bytes) {
        opening.key.reset(); // not cached: read as usual
        return readChromeTraceFile(path, progress);
    }
    opening.index = indexPathFor(path, directory);
    if (File file = openFile(opening.index, "rb")) {
        std::string why;
        std::optional<Trace> trace = readTraceIndex(file.get(), *opening.key, &why);
        if (trace) {
            opening.from_index = true;
            std::error_code error; // refresh for trim(): recently used stays
            fs::last_write_time(opening.index, fs::file_time_type::clock::now(), error);
            const uint64_t total = opening.key->size;
            if (progress.report && !progress.report(total, total)) throw TraceReadCancelled();
            return std::move(*trace);
        }
        opening.note = "cached index not used (" + why + "); read the trace again";
    }
    return readChromeTraceFile(path, progress);
}

void keepTraceIndex(const Trace& trace, const TraceCacheSettings& settings, TraceOpening& opening) {
    if (opening.from_index || !opening.key || opening.index.empty()) return;
    try {
        // The trace read is the file as it was when opened: if it changed
        // during the read, the index would describe neither version.
        const std::optional<TraceKey> now = traceKeyOf(opening.trace);
        if (!now || *now != *opening.key) {
            opening.note = "the trace changed while it was read: no index kept";
            return;
        }
        fs::create_directories(opening.index.parent_path());
        writeAtomically(opening.index, [&](const fs::path& tmp) {
            errno = 0;
            File file = openFile(tmp, "wb");
            if (!file || !writeTraceIndex(trace, *opening.key, file.get()) ||
                std::fflush(file.get()) != 0)
                throw std::runtime_error(writeError(opening.index.string(), errno));
        });
        trim(opening.index.parent_path(), settings.max_total_bytes, opening.index);
    } catch (const std::exception& e) {
        opening.note = std::string("index not kept: ") + e.what();
    }
}

fs::path traceCacheCompanion(const TraceOpening& opening, const char* extension) {
    if (opening.index.empty() || !opening.key) return {};
    fs::path path = opening.index;
    return path.replace_extension(extension);
}

fs::path traceCacheFileFor(const fs::path& path, const TraceCacheSettings& settings,
                           const char* extension) {
    const fs::path directory = directoryOf(settings);
    if (!settings.enabled || directory.empty()) return {};
    return indexPathFor(path, directory).replace_extension(extension);
}

TraceCacheUsage traceCacheUsage(const TraceCacheSettings& settings) {
    TraceCacheUsage usage;
    usage.directory = directoryOf(settings);
    std::error_code error;
    for (const auto& f : indexFiles(usage.directory)) {
        ++usage.files;
        if (f.path().extension() == kExtension) ++usage.indexes;
        usage.bytes += f.file_size(error);
    }
    return usage;
}

size_t clearTraceCache(const TraceCacheSettings& settings) {
    size_t removed = 0;
    std::error_code error;
    for (const auto& f : indexFiles(directoryOf(settings)))
        if (fs::remove(f.path(), error)) ++removed;
    return removed;
}

} // namespace ts
