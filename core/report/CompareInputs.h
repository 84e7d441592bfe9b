#pragma once
// What a comparison (and the advice and roofline commands) read from a run
// directory besides run.json: the operator table of its profiled steps, from
// ops.csv when present, else from an operator table stored in run.json's
// "profile" summaries.
#include <cstdint>
#include <filesystem>
#include <optional>

#include <nlohmann/json_fwd.hpp>

#include "analysis/OpStats.h"
#include "report/RunDirectory.h"

namespace ts {

// Reads ops.csv as formatOpTableCsv writes it. Throws RunFormatError naming
// the file and the missing column or bad row.
OpTable readOpsCsv(const std::filesystem::path& path);
// An OpTable in opTableToJson form ({"rows": [{"name", "self_cpu_ns", ...}]})
// found anywhere inside `profile`, nullopt when there is none.
std::optional<OpTable> opTableFromProfileJson(const nlohmann::json& profile);
// ops.csv of the run, else the table in run.json's profile, else nullopt.
std::optional<OpTable> loadRunOps(const RunRecord& run);
// Steps recorded inside an active profiling window.
int64_t profiledSteps(const RunRecord& run);

} // namespace ts
