#pragma once
// Opens whatever a path is, through the source registry: a run directory
// (or its run.json), a trace file, a folder of per-rank traces (a folder
// holding a single trace opens that trace), an allocator snapshot or an
// export_memory_timeline file. Blocking (the GUI calls it on a worker).
#include <filesystem>

#include "sources/Document.h"
#include "sources/SourceRegistry.h"

namespace ts::sources {

// Never throws: what cannot be opened is doc.error (a sentence naming the
// path), a run's trace that cannot is doc.trace_error, a cancel (through
// request.progress, while a trace is read or analysed) doc.cancelled.
Document openDocument(const std::filesystem::path& path, const OpenRequest& request = {});

// The absolute path a document opened from `path` is known by (run.json
// means its run directory), so that the same document is recognised.
std::string documentPath(const std::filesystem::path& path);

} // namespace ts::sources
