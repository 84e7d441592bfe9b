#pragma once
// The CLI's commands as functions returning the process exit code:
// 0 success, 1 failure (the run failed), 2 bad input (message names it).
#include <ostream>

#include "commands/CommandOptions.h"
#include "config/ExperimentConfig.h"

namespace ts {

namespace exit_code {
inline constexpr int kOk = 0;
inline constexpr int kFailure = 1;
inline constexpr int kBadInput = 2;
} // namespace exit_code

// Preset (default quickstart when nothing is given), file, overrides; validated.
ExperimentConfig resolveConfig(const ConfigSource& source);

int runExperimentCommand(const RunOptions& options, std::ostream& out, std::ostream& err);
int evaluateCommand(const EvaluateOptions& options, std::ostream& out, std::ostream& err);
int modelInfoCommand(const ModelInfoOptions& options, std::ostream& out, std::ostream& err);
int envCommand(const EnvOptions& options, std::ostream& out, std::ostream& err);
int presetsCommand(std::ostream& out, std::ostream& err);

// Cancels the experiment running in this process, if any (SIGINT handler).
void cancelRunningExperiment();

} // namespace ts
