#include "trace/ChromeTraceReader.h"

#include <memory>

#include "trace/FastTraceReader.h"
#include "trace/JsonRawEvent.h"
#include "trace/TraceBuilder.h"
#include "trace/TraceJsonStream.h"
#include "trace/TraceSource.h"

namespace ts {

// The builder is local: a cancel or an error unwinds it with everything it
// had built, so no half-read trace escapes.
Trace readTraceSequential(TraceSource& source, const std::string& origin,
                          const ReadProgress& progress) {
    TraceBuilder builder(origin);
    JsonEventFeed feed(builder);
    const TraceJsonRoot root = streamTraceJson(source, origin, feed, progress);
    Trace trace = builder.finish(root);
    const uint64_t total = source.total();
    if (progress.report && !progress.report(total, total)) throw TraceReadCancelled();
    return trace;
}

Trace parseChromeTrace(const std::string& text, const std::string& origin) {
    return parseChromeTrace(text, origin, TraceReadOptions{});
}

Trace readChromeTraceFile(const std::filesystem::path& path, const ReadProgress& progress) {
    return readChromeTraceFile(path, progress, TraceReadOptions{});
}

} // namespace ts
