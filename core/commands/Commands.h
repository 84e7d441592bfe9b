#pragma once
// The CLI's commands as functions returning the process exit code:
// the codes of inspect/ExitCodes.h. The commands that need no LibTorch
// (trace-stats, trace-diff, presets) are in inspect/.
#include <ostream>

#include "commands/CommandOptions.h"
#include "config/ExperimentConfig.h"
#include "inspect/ExitCodes.h"

namespace ts {

// Preset (default quickstart when nothing is given), file, overrides; validated.
ExperimentConfig resolveConfig(const ConfigSource& source);

int runExperimentCommand(const RunOptions& options, std::ostream& out, std::ostream& err);
int evaluateCommand(const EvaluateOptions& options, std::ostream& out, std::ostream& err);
int modelInfoCommand(const ModelInfoOptions& options, std::ostream& out, std::ostream& err);
int envCommand(const EnvOptions& options, std::ostream& out, std::ostream& err);

// Cancels the experiment running in this process, if any (SIGINT handler).
void cancelRunningExperiment();

} // namespace ts
