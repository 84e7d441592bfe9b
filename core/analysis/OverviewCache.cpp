#include "analysis/OverviewCache.h"

#include <cstdio>
#include <exception>
#include <memory>
#include <string_view>

#include "trace/TraceKey.h"
#include "util/AtomicFile.h"

namespace ts {

namespace fs = std::filesystem;

namespace {

constexpr const char* kExtension = kOverviewCacheExtension;
static_assert(std::string_view(kTraceCacheCompanions[0]) == std::string_view(kExtension),
              "the trace cache lists, clears and trims this file");

OverviewCacheStamp stampOf(const Trace& trace, const TraceKey& key,
                           const GpuAnalysisOptions& options) {
    OverviewCacheStamp stamp;
    stamp.key = key;
    stamp.events = trace.events.size();
    stamp.plugin_compatible = options.plugin_compatible;
    stamp.build = analysisSourceHash();
    return stamp;
}

} // namespace

std::optional<OverviewSnapshot> loadOverviewSnapshot(const Trace& trace,
                                                     const TraceOpening& opening,
                                                     const GpuAnalysisOptions& options,
                                                     std::string* why) {
    const fs::path path = traceCacheCompanion(opening, kExtension);
    auto none = [why](const char* reason) -> std::optional<OverviewSnapshot> {
        if (why) *why = reason;
        return std::nullopt;
    };
    if (path.empty()) return none("the trace is not cached");
    const std::optional<std::string> bytes = readWholeFile(path);
    if (!bytes) return none("no Overview cache file");
    std::optional<OverviewSnapshot> snapshot =
        readOverviewCache(*bytes, stampOf(trace, *opening.key, options), why);
    if (snapshot) { // recently used: the cache's trimming keeps it
        std::error_code error;
        fs::last_write_time(path, fs::file_time_type::clock::now(), error);
    }
    return snapshot;
}

bool keepOverviewSnapshot(const GpuTraceAnalysis& analysis, const LaunchIndex& launches,
                          const std::vector<StepSpan>& steps, const Trace& trace,
                          const TraceOpening& opening, const GpuAnalysisOptions& options,
                          std::string* note) {
    const fs::path path = traceCacheCompanion(opening, kExtension);
    auto fail = [note](const std::string& reason) {
        if (note) *note = reason;
        return false;
    };
    if (path.empty()) return fail("the trace is not cached");
    try {
        // What was analysed is the file as it was opened: if it changed
        // since, these results describe neither version.
        const std::optional<TraceKey> now = traceKeyOf(opening.trace);
        if (!now || *now != *opening.key)
            return fail("the trace changed since it was opened: no Overview kept");
        const std::string bytes =
            writeOverviewCache(analysis, launches, steps, stampOf(trace, *now, options));
        fs::create_directories(path.parent_path());
        writeFileAtomically(path, bytes);
        return true;
    } catch (const std::exception& e) {
        return fail(std::string("Overview not kept: ") + e.what());
    }
}

} // namespace ts
