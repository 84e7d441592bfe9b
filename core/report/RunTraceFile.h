#pragma once
// The trace a path given to a trace command stands for: a trace file as it
// is, or a Trainscope run directory (or its run.json) for the run's
// trace.json, so `trace-stats RUN` reads what `trace-diff RUN ...` reads.
#include <filesystem>

namespace ts {

// Throws std::invalid_argument naming the path when it does not exist or is
// a directory without trace.json.
std::filesystem::path runTraceFile(const std::filesystem::path& path);

} // namespace ts
