#pragma once
// What the user asks of a running job ("trace the next 5 steps, with shapes")
// and the Kineto on-demand config that asks it of the process: the keys that
// dynolog's `dyno gputrace` sends and libkineto's Config reads.
#include <string>

namespace ts::ondemand {

struct TraceRequest {
    // The next `iterations` optimizer steps (Kineto's iteration trigger, from
    // the next step on; asked as one more, see kinetoConfig), or when 0 the
    // next `duration_ms` milliseconds.
    int iterations = 5;
    int duration_ms = 0;
    bool shapes = false;
    bool memory = false;
    bool stacks = false;
    bool modules = false;
    // Several processes start together at the next multiple of this many
    // steps (libkineto's PROFILE_START_ITERATION_ROUNDUP): each gets the
    // config at its own poll, up to a poll interval (5 s) apart, so the
    // multiple must lie beyond the last poll. 0: 1 for one process, 100 for
    // several.
    int align_steps = 0;
};

// Empty when `request` can be asked; otherwise what is wrong with it, naming
// the option (--iterations, --duration-ms).
std::string checkTraceRequest(const TraceRequest& request);

// The config text for `request`, Kineto writing to `log_file` (it inserts the
// process id before the extension: trace.json -> trace_<pid>.json).
// `processes`: how many are asked together (align_steps' default).
std::string kinetoConfig(const TraceRequest& request, const std::string& log_file,
                         int processes = 1);

// Where a process writes the trace asked with `log_file`.
std::string tracePathOfProcess(const std::string& log_file, int pid);

} // namespace ts::ondemand
