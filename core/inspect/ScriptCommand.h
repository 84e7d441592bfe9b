#pragma once
// `trainscope-cli run-script`: the user's own Python script under
// Trainscope's probe (docs/script-probe.md), recorded as a run directory.
// The script's output passes through as it prints it (to standard error
// with --json, which keeps standard output for the summary).
#include <ostream>
#include <string>
#include <vector>

#include "scriptrun/ScriptRun.h"
#include "util/Cancel.h"

namespace ts {

struct RunScriptOptions {
    scriptrun::ScriptRunOptions run;
    std::vector<std::string> sets; // --set profile.KEY=VALUE
    bool no_profile = false;
    bool json = false;
};

// The script's exit status (130 when stopped); 2 for Trainscope's own
// refusals (no such script, an interpreter without torch, a bad --set),
// with nothing recorded.
int runScriptCommand(RunScriptOptions options, std::ostream& out, std::ostream& err,
                     const CancelFlag* stop);

} // namespace ts
