#pragma once
// The command-line form of `run-script` (inspect/ScriptCommand.h), in the
// front end: the user's script needs Trainscope's probe, not its LibTorch.
#include <optional>
#include <ostream>

#include <CLI/CLI.hpp>

#include "inspect/ScriptCommand.h"

namespace ts::cli {

struct ScriptCommand {
    RunScriptOptions options;
    CLI::App* command = nullptr;
};

void addScriptCommand(CLI::App& app, ScriptCommand& command);
// Its exit code when it was given; nullopt otherwise.
std::optional<int> runScriptCommand(ScriptCommand& command, std::ostream& out, std::ostream& err);

} // namespace ts::cli
