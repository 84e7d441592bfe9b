#include "inspect/TraceInput.h"

#include <algorithm>
#include <cstdio>

#include "inspect/ReadProgressLine.h"

namespace ts {

namespace {

TraceCacheSettings cacheSettings(bool use_cache) {
    TraceCacheSettings settings;
    settings.enabled = use_cache;
    return settings;
}

std::string seconds(std::chrono::steady_clock::duration d) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f s", std::chrono::duration<double>(d).count());
    return text;
}

// "event store: 161.2 MB, 57.4 B/event": the figure issue #14 budgets.
std::string storeLine(const EventStore& events) {
    const double bytes = static_cast<double>(events.memoryBytes());
    const double n = static_cast<double>(std::max<size_t>(1, events.size()));
    char text[96];
    std::snprintf(text, sizeof text, "event store: %.1f MB, %.1f B/event", bytes / 1e6, bytes / n);
    return text;
}

} // namespace

TraceInput::TraceInput(const std::string& file, const Options& options, std::ostream& err)
    : options_(options), started_(Clock::now()), settings_(cacheSettings(options.cache)), err_(err),
      trace_(
          openTrace(file, readProgressLine(file, err, options.progress_line), settings_, opening_)),
      read_(Clock::now()) {}

void TraceInput::keepIndex() {
    const Clock::time_point analysed = Clock::now();
    const bool wrote = !opening_.from_index && opening_.key.has_value();
    keepTraceIndex(trace_, settings_, opening_);
    if (opening_.note.rfind("index not kept", 0) == 0)
        err_ << "note: trace " << opening_.note << '\n';
    opening_.key.reset(); // once
    if (!options_.timings) return;
    err_ << "timings: read " << seconds(read_ - started_) << " ("
         << (opening_.from_index ? "from its index" : "JSON") << ", " << trace_.events.size()
         << " events), analysis and output " << seconds(analysed - read_);
    if (wrote) err_ << ", index kept " << seconds(Clock::now() - analysed);
    err_ << '\n' << storeLine(trace_.events) << '\n';
}

} // namespace ts
