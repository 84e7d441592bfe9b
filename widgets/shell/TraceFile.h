#pragma once
// Reads a trace file (Chrome trace JSON as written by Trainscope, torch.profiler
// or Kineto) into the shared trace model, through core's reader and the trace
// cache (trace/TraceCache.h): a large trace opened before loads from its index.
#include <memory>

#include <QString>

#include "trace/ReadProgress.h"
#include "trace/Trace.h"
#include "trace/TraceCache.h"

namespace ts::gui {

// Throws (std::exception with a sentence naming the file) when unreadable,
// TraceReadCancelled when `progress` cancels. `opening` (when given) says
// whether the trace came from its index, and names its cache files (for the
// Overview cache, analysis/OverviewCache.h).
std::shared_ptr<const Trace> readTraceFile(const QString& path, const ReadProgress& progress = {},
                                           TraceOpening* opening = nullptr);

} // namespace ts::gui
