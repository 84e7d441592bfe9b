#pragma once
// Writes one profiling window into a run directory: ops.csv (operator table
// grouped by name), trace.json (Chrome trace) and memory.csv (live CPU tensor
// bytes over time); window N > 0 gets ops_N.csv, trace_N.json, memory_N.csv.
#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "trace/Trace.h"

namespace ts {

// Returns the window's summary for run.json: steps, file names, the top 10
// operators by self CPU time, the step breakdown, peak memory, FLOPs and notes.
// Throws std::runtime_error naming the file that could not be written.
nlohmann::json writeProfileOutputs(const ProfileCapture& capture,
                                   const std::filesystem::path& run_dir);

// The summary alone (no files): `files` names them.
nlohmann::json profileSummary(const ProfileCapture& capture, const nlohmann::json& files);

// memory.csv: t_ms,live_bytes,delta_bytes,op
std::string formatMemoryCsv(const Trace& trace);

} // namespace ts
