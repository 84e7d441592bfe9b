#pragma once
// Chrome Trace Event Format JSON -> Trace: traces written by Python's
// torch.profiler export_chrome_trace (the Kineto form {"traceEvents": [...]}
// and the legacy list form [...]), by Trainscope's own writer, and other
// Chrome traces in general. Streams the file (SAX), so memory grows with the
// events kept, not with the JSON. Gzip-compressed files (.json.gz) are read
// too.
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "trace/Trace.h"
#include "trace/TraceReadError.h"

namespace ts {

// Files above this size are refused (viewers cannot open them either).
inline constexpr int64_t kMaxTraceFileBytes = int64_t(2) << 30;

Trace readChromeTraceFile(const std::filesystem::path& path);
// `origin` names the text in error messages (a path, "<stdin>").
Trace parseChromeTrace(const std::string& text, const std::string& origin);

} // namespace ts
