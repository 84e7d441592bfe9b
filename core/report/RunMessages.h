#pragma once
// The messages a run recorded in run.json ("warning: ...", "error: ..."), for
// a view that opens a finished run: what the engine said while it trained,
// e.g. that the run was interrupted and continued.
#include <filesystem>
#include <string>
#include <vector>

#include "records/Records.h"

namespace ts {

struct RunMessage {
    LogLevel level = LogLevel::Info;
    std::string text; // without its "warning: " or "error: " prefix
};

// Empty when run.json cannot be read or holds none (loadRun names problems).
std::vector<RunMessage> loadRunMessages(const std::filesystem::path& dir);

} // namespace ts
