#include "inspect/TraceInput.h"

#include "inspect/ReadProgressLine.h"

namespace ts {

namespace {

TraceCacheSettings cacheSettings(bool use_cache) {
    TraceCacheSettings settings;
    settings.enabled = use_cache;
    return settings;
}

} // namespace

TraceInput::TraceInput(const std::string& file, bool use_cache, bool progress_line,
                       std::ostream& err)
    : settings_(cacheSettings(use_cache)), err_(err),
      trace_(openTrace(file, readProgressLine(file, err, progress_line), settings_, opening_)) {}

void TraceInput::keepIndex() {
    keepTraceIndex(trace_, settings_, opening_);
    if (opening_.note.rfind("index not kept", 0) == 0)
        err_ << "note: trace " << opening_.note << '\n';
    opening_.key.reset(); // once
}

} // namespace ts
