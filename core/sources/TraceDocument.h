#pragma once
// A document's trace: read through the trace cache (a large trace opened
// before loads from its index, whose index is otherwise written in the
// background while the trace is analysed) and analysed off the thread that
// shows it. The trace, run and rank-folder sources share these.
#include <filesystem>
#include <memory>

#include "sources/Document.h"
#include "sources/SourceRegistry.h"
#include "trace/TraceCache.h"

namespace ts::sources {

// Throws (a sentence naming the file) when unreadable, TraceReadCancelled
// when `progress` cancels; `opening` says whether it came from its index.
std::shared_ptr<const Trace> readDocumentTrace(const std::filesystem::path& path,
                                               const ReadProgress& progress,
                                               TraceOpening* opening = nullptr);

// The views of doc.trace made off the GUI thread: all of them, or for a
// large trace (more than request.defer_views_above events) what the
// Overview and the Timeline show (doc.deferred). `opening` (null: not
// through the cache) lets a large trace's Overview come from its cache.
void analyzeDocumentTrace(Document& doc, const OpenRequest& request,
                          const TraceOpening* opening = nullptr);

// Reads `path` into doc.trace and analyses it; a failure is doc.trace_error,
// a cancel marks the document cancelled (nothing of it kept).
void loadDocumentTrace(Document& doc, const std::filesystem::path& path,
                       const OpenRequest& request);

// The user stopped the load: nothing of it is kept, nothing shown.
void markCancelled(Document& doc);

} // namespace ts::sources
