#include "inspect/TraceInput.h"

#include <algorithm>
#include <cstdio>

#include "inspect/ReadProgressLine.h"
#include "report/RunTraceFile.h"
#include "util/ProcessMemory.h"

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

// "event store: 26.4 MB, 61.2 B/event (core 32.0, ids 12.0, ...)": the
// figure issue #14 budgets, and which part of the store pays for it.
std::string storeLine(const EventStore& events) {
    const double n = static_cast<double>(std::max<size_t>(1, events.size()));
    const EventStore::MemoryParts p = events.memoryParts();
    auto per = [n](size_t bytes) { return static_cast<double>(bytes) / n; };
    char text[320];
    std::snprintf(text, sizeof text,
                  "event store: %.1f MB, %.1f B/event (core %.1f, ids %.1f, op rows %.1f, "
                  "input signatures %.1f, rare rows %.1f, launch configs %.1f, costs %.1f, "
                  "memory %.1f, maps %.1f)",
                  static_cast<double>(events.memoryBytes()) / 1e6, per(events.memoryBytes()),
                  per(p.core), per(p.ids), per(p.op), per(p.signatures), per(p.rare),
                  per(p.launches), per(p.costs), per(p.memory), per(p.maps));
    return text;
}

} // namespace

TraceInput::TraceInput(const std::string& file, const Options& options, std::ostream& err)
    : options_(options), started_(Clock::now()), settings_(cacheSettings(options.cache)), err_(err),
      trace_(openTrace(runTraceFile(file), readProgressLine(file, err, options.progress_line),
                       settings_, opening_)),
      opened_(opening_), read_(Clock::now()), peak_after_read_(peakRssBytes()) {
    if (opening_.from_index || !opening_.key) return;
    index_writer_ = std::thread([this] {
        const Clock::time_point start = Clock::now();
        keepTraceIndex(trace_, settings_, opening_); // catches its own errors
        index_time_ = Clock::now() - start;
    });
}

TraceInput::~TraceInput() {
    if (index_writer_.joinable()) index_writer_.join();
}

void TraceInput::keepIndex() {
    const Clock::time_point analysed = Clock::now();
    const bool wrote = index_writer_.joinable();
    if (wrote) index_writer_.join();
    if (opening_.note.rfind("index not kept", 0) == 0)
        err_ << "note: trace " << opening_.note << '\n';
    opening_.key.reset(); // once
    if (!options_.timings) return;
    err_ << "timings: read " << seconds(read_ - started_) << " ("
         << (opening_.from_index ? "from its index" : "JSON") << ", " << trace_.events.size()
         << " events), analysis and output " << seconds(analysed - read_)
         << (overview_cached_ ? " (Overview cached)" : "");
    if (wrote)
        err_ << ", index kept " << seconds(index_time_) << " beside it (waited "
             << seconds(Clock::now() - analysed) << " more)";
    err_ << '\n' << storeLine(trace_.events) << '\n';
    err_ << "peak memory: " << peak_after_read_ / 1000000 << " MB after the read, "
         << peakRssBytes() / 1000000 << " MB in all\n";
}

} // namespace ts
