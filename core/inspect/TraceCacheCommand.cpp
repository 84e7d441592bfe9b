#include "inspect/TraceCacheCommand.h"

#include "inspect/ExitCodes.h"
#include "inspect/Megabytes.h"
#include "trace/TraceCache.h"

namespace ts {

int runTraceCache(const TraceCacheOptions& options, std::ostream& out, std::ostream& err) {
    const TraceCacheSettings settings;
    const TraceCacheUsage usage = traceCacheUsage(settings);
    if (usage.directory.empty()) {
        err << "trace-cache: no cache directory: set TRAINSCOPE_CACHE_DIR, XDG_CACHE_HOME or "
               "HOME\n";
        return exit_code::kBadInput;
    }
    out << "trace cache: " << usage.directory.string() << "\n";
    const size_t overviews = usage.files - usage.indexes;
    out << usage.indexes << (usage.indexes == 1 ? " index" : " indexes") << " and " << overviews
        << (overviews == 1 ? " saved Overview or rank summary, "
                           : " saved Overviews and rank summaries, ")
        << wholeMegabytes(usage.bytes) + " MB"
        << " (the oldest are removed above " << wholeMegabytes(settings.max_total_bytes) + " MB"
        << "; traces under " << wholeMegabytes(settings.min_trace_bytes) + " MB"
        << " are not indexed)\n";
    if (options.clear) {
        const size_t removed = clearTraceCache(settings);
        out << "removed " << removed << (removed == 1 ? " file" : " files") << "\n";
        if (removed < usage.files) {
            err << "trace-cache: " << usage.files - removed << " could not be removed from "
                << usage.directory.string() << "\n";
            return exit_code::kFailure;
        }
    }
    return exit_code::kOk;
}

} // namespace ts
