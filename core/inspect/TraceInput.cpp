#include "inspect/TraceInput.h"

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
    err_ << '\n';
}

} // namespace ts
