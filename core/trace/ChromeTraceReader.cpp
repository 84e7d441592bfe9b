#include "trace/ChromeTraceReader.h"

#include <memory>

#include "trace/JsonRawEvent.h"
#include "trace/TraceBuilder.h"
#include "trace/TraceJsonStream.h"
#include "trace/TraceSource.h"

namespace ts {

namespace {

// The builder is local: a cancel or an error unwinds it with everything it
// had built, so no half-read trace escapes.
Trace readTrace(TraceSource& source, const std::string& origin, const ReadProgress& progress) {
    TraceBuilder builder(origin);
    JsonEventFeed feed(builder);
    const TraceJsonRoot root = streamTraceJson(source, origin, feed, progress);
    Trace trace = builder.finish(root);
    const uint64_t total = source.total();
    if (progress.report && !progress.report(total, total)) throw TraceReadCancelled();
    return trace;
}

} // namespace

Trace parseChromeTrace(const std::string& text, const std::string& origin) {
    const std::unique_ptr<TraceSource> source = traceTextSource(text);
    return readTrace(*source, origin, ReadProgress{});
}

Trace readChromeTraceFile(const std::filesystem::path& path, const ReadProgress& progress) {
    const std::unique_ptr<TraceSource> source = openTraceFile(path);
    return readTrace(*source, path.string(), progress);
}

} // namespace ts
