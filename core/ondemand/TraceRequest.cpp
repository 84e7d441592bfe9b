#include "ondemand/TraceRequest.h"

namespace ts::ondemand {

namespace {

// Beyond these a trace is too large to open, or the job long gone.
constexpr int kMaxIterations = 1000;
constexpr int kMaxDurationMs = 10 * 60 * 1000;
constexpr int kJobAlignSteps = 100;

std::string flag(bool on) {
    return on ? "true" : "false";
}

} // namespace

std::string checkTraceRequest(const TraceRequest& request) {
    if (request.iterations > 0 && request.duration_ms > 0)
        return "give --iterations or --duration-ms, not both";
    if (request.iterations == 0 && request.duration_ms == 0)
        return "give --iterations N (steps) or --duration-ms N";
    if (request.iterations < 0 || request.iterations > kMaxIterations)
        return "--iterations " + std::to_string(request.iterations) + ": 1 to " +
               std::to_string(kMaxIterations) + " steps";
    if (request.duration_ms < 0 || request.duration_ms > kMaxDurationMs)
        return "--duration-ms " + std::to_string(request.duration_ms) + ": 1 to " +
               std::to_string(kMaxDurationMs) + " ms";
    if (request.align_steps < 0 || request.align_steps > 100000)
        return "--align-steps " + std::to_string(request.align_steps) + ": 1 to 100000";
    return {};
}

std::string kinetoConfig(const TraceRequest& request, const std::string& log_file, int processes) {
    std::string config = "ACTIVITIES_LOG_FILE=" + log_file + "\n";
    if (request.iterations > 0) {
        // Iteration 0 rounded up to the next multiple of `align` the process
        // reaches: its next step for one process.
        const int align =
            request.align_steps > 0 ? request.align_steps : (processes > 1 ? kJobAlignSteps : 1);
        config +=
            "PROFILE_START_ITERATION=0\nPROFILE_START_ITERATION_ROUNDUP=" + std::to_string(align) +
            "\n";
        // One more than asked: libkineto starts a few ms after an optimizer
        // step's end, and Trainscope's steps run from one optimizer step's
        // end to the next (trace/OptimizerSteps.h), so the first traced
        // iteration is cut and N + 1 give N whole steps.
        config += "ACTIVITIES_ITERATIONS=" + std::to_string(request.iterations + 1) + "\n";
    } else {
        config += "PROFILE_START_TIME=0\n";
        config += "ACTIVITIES_DURATION_MSECS=" + std::to_string(request.duration_ms) + "\n";
    }
    config += "PROFILE_REPORT_INPUT_SHAPES=" + flag(request.shapes) + "\n";
    config += "PROFILE_PROFILE_MEMORY=" + flag(request.memory) + "\n";
    config += "PROFILE_WITH_STACK=" + flag(request.stacks) + "\n";
    config += "PROFILE_WITH_MODULES=" + flag(request.modules);
    return config;
}

std::string tracePathOfProcess(const std::string& log_file, int pid) {
    const size_t slash = log_file.rfind('/');
    const size_t dot = log_file.rfind('.');
    const bool has_extension =
        dot != std::string::npos && (slash == std::string::npos || dot > slash);
    const std::string suffix = "_" + std::to_string(pid);
    if (!has_extension) return log_file + suffix;
    return log_file.substr(0, dot) + suffix + log_file.substr(dot);
}

} // namespace ts::ondemand
