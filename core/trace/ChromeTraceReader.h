#pragma once
// Chrome Trace Event Format JSON -> Trace: traces written by Python's
// torch.profiler export_chrome_trace (the Kineto form {"traceEvents": [...]}
// and the legacy list form [...]), by Trainscope's own writer, and other
// Chrome traces in general. Streams the file, so memory grows with the
// events kept, not with the JSON; large files are parsed on all cores
// (FastTraceReader.h). Gzip-compressed files (.json.gz) are read too. A
// file read reports its progress and can be cancelled (ReadProgress). There
// is no size limit; more than 2^31-1 events is a TraceReadError.
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "trace/ReadProgress.h"
#include "trace/Trace.h"
#include "trace/TraceReadError.h"

namespace ts {

// Bumped whenever the reader's rules change (what it classifies, attributes
// or keeps), so trace indexes made by an older reader are not used
// (trace/TraceIndex.h). 2: a stream's lane is a device lane even when its
// first event is a synchronisation (cuda_sync). 3: a copy's or set's
// "memory bandwidth (GB/s)" is kept (TraceEvent::gbps). 4: what an event
// synchronisation waited for is kept (Trace::syncWaitOf). 5: FLOPs
// estimated from the input shapes of a trace without any (FlopModel.h).
// 6: a trace without ProfilerStep#N has steps between its optimizer steps
// (OptimizerSteps.h). 7: a collective's process group and Seq are kept
// (Trace::collectiveTagOf).
inline constexpr uint32_t kTraceReaderVersion = 7;

// Throws TraceReadError, or TraceReadCancelled when progress.report returns
// false (also on its last call, with done == total: no trace is returned).
Trace readChromeTraceFile(const std::filesystem::path& path, const ReadProgress& progress = {});
// `origin` names the text in error messages (a path, "<stdin>").
Trace parseChromeTrace(const std::string& text, const std::string& origin);

} // namespace ts
