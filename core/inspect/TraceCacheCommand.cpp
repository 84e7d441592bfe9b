#include "inspect/TraceCacheCommand.h"

#include "inspect/ExitCodes.h"
#include "trace/TraceCache.h"

namespace ts {

namespace {

std::string megabytes(uint64_t bytes) {
    return std::to_string((bytes + (uint64_t(1) << 19)) >> 20) + " MB";
}

} // namespace

int runTraceCache(const TraceCacheOptions& options, std::ostream& out, std::ostream& err) {
    const TraceCacheSettings settings;
    const TraceCacheUsage usage = traceCacheUsage(settings);
    if (usage.directory.empty()) {
        err << "trace-cache: no cache directory: set TRAINSCOPE_CACHE_DIR, XDG_CACHE_HOME or "
               "HOME\n";
        return exit_code::kBadInput;
    }
    out << "trace cache: " << usage.directory.string() << "\n";
    out << usage.files << (usage.files == 1 ? " index, " : " indexes, ") << megabytes(usage.bytes)
        << " (the oldest are removed above " << megabytes(settings.max_total_bytes)
        << "; traces under " << megabytes(settings.min_trace_bytes) << " are not indexed)\n";
    if (options.clear) {
        const size_t removed = clearTraceCache(settings);
        out << "removed " << removed << (removed == 1 ? " index" : " indexes") << "\n";
        if (removed < usage.files) {
            err << "trace-cache: " << usage.files - removed << " could not be removed from "
                << usage.directory.string() << "\n";
            return exit_code::kFailure;
        }
    }
    return exit_code::kOk;
}

} // namespace ts
