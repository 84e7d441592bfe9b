#pragma once
// Reads a trace file (Chrome trace JSON as written by Trainscope, torch.profiler
// or Kineto) into the shared trace model, through core's reader and the trace
// cache (trace/TraceCache.h): a large trace opened before loads from its index.
#include <memory>

#include <QString>

#include "trace/ReadProgress.h"
#include "trace/Trace.h"

namespace ts::gui {

// Throws (std::exception with a sentence naming the file) when unreadable,
// TraceReadCancelled when `progress` cancels. `from_index` (when given) says
// whether the trace came from its index.
std::shared_ptr<const Trace> readTraceFile(const QString& path, const ReadProgress& progress = {},
                                           bool* from_index = nullptr);

} // namespace ts::gui
