#pragma once
// The rules shared by both JSON readers (nlohmann and simdjson) and the
// TraceBuilder: what kind an event is, which categories are device work, and
// how "ts"/"dur" microsecond numbers become exact nanoseconds. In one place
// so that the readers cannot drift apart.
#include <cstdint>
#include <string>
#include <string_view>

#include "trace/KinetoInfo.h"
#include "trace/RawTraceEvent.h"
#include "trace/Trace.h"

namespace ts {

// The kind of an event: by its category first, then by its name (the
// TensorBoard plugin's rules; see docs/gpu-traces.md).
EventKind kindFromCategory(KinetoCategory category, const std::string& name);
// Kernels, copies, memsets and GPU annotations run on a device lane.
bool isDeviceCategory(KinetoCategory c);
// Kernels, copies and memsets: launched by a runtime call.
bool launchesDeviceWork(KinetoCategory c);

// "1700000000123.456" (microseconds) -> 1700000000123456 ns, exactly; falls
// back to `value` (the text as a double) for exponent forms.
int64_t microsTextToNs(std::string_view text, double value);
// A "ts"/"dur" number token (JSON number text, trimmed) as nanoseconds, the
// way the nlohmann stream converts it: integers times 1000 (kept as nlohmann
// classifies them: negative ones signed, others unsigned, too large ones as
// floats), other numbers through microsTextToNs.
RawNumber microsTokenToNs(std::string_view token);

} // namespace ts
