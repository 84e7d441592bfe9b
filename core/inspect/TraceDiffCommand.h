#pragma once
// `trainscope-cli trace-diff A B`: the Diff view of two traces (a Kineto
// trace, a Trainscope run directory or a Trainscope trace each; see
// analysis/TraceDiff.h and docs/gpu-traces.md "Diff view") as text, CSV or
// JSON.
#include <cstddef>
#include <ostream>
#include <string>

namespace ts {

struct TraceDiffCommandOptions {
    std::string a, b;            // trace files, run directories or run.json files
    std::string format = "text"; // text | csv | json
    size_t limit = 0;            // rows per table; 0: 10 in text, all in CSV and JSON
    // The steps to align (0-based) as text, so that a bad value is reported
    // with the option's name; "" the median-duration step.
    std::string step_a, step_b;
    bool plugin_compatible = false; // the TensorBoard plugin's exact Overview rules
};

// 0 on success; 2 for bad options, a missing or unreadable input, or a step
// that the trace does not have (the message on `err` names it).
int runTraceDiff(const TraceDiffCommandOptions& options, std::ostream& out, std::ostream& err);

} // namespace ts
