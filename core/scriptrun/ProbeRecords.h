#pragma once
// The probe's lines as Trainscope's records: a `step` line is a StepRecord
// like the Trainer's, so the run directory, the Live view and every table
// read a script's run as they read Trainscope's own. Each reader checks the
// keys it takes (type and range) and throws ProbeWireError naming the key.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "records/Records.h"

namespace ts::scriptrun {

// Who the probe runs in: its `hello` line.
struct ProbeHello {
    int rank = 0;
    int local_rank = 0;
    int world_size = 1;
    int64_t pid = 0;
    std::string python_version;
    std::string executable;
    std::string torch_version;
    std::string cuda_version; // empty: none
    std::string device;       // cpu, cuda:0
    std::string device_name;
    std::string script;
    std::string module;
    std::vector<std::string> argv;
    std::string cwd;
    bool onCuda() const { return device.rfind("cuda", 0) == 0; }
};

// A trace the probe's torch.profiler wrote for one cycle.
struct ProbeTrace {
    int rank = 0;
    int cycle = 0;
    std::string path;
    int64_t first_step = 0;
    int64_t last_step = 0;
};

// The end of the script as the probe saw it.
struct ProbeBye {
    int64_t steps = 0;
    std::string status; // ok | exception | exit | interrupted
    int exit_code = 0;
    std::string error;
    double overhead_us_per_step = 0;
};

// A step much slower than the recent ones (the probe's catch_slow).
struct ProbeSlowStep {
    int64_t step = 0;
    double step_ms = 0;
    double median_ms = 0;
    double upper_ms = 0;
    int trace_steps = 0;
};

ProbeHello helloFromLine(const nlohmann::json& line);
// A `device` line: the device of the first optimizer's parameters, sent at
// its first step (asking earlier would initialise CUDA before the script
// chose its devices).
void applyDeviceLine(const nlohmann::json& line, ProbeHello& hello);
StepRecord stepFromLine(const nlohmann::json& line);
// A `late` line's loss and device times into the step it names.
void applyLateLine(const nlohmann::json& line, StepRecord& step);
MemoryByCategory memoryFromLine(const nlohmann::json& line);
// Epoch number, steps and time; the rates and losses come from the steps.
EpochRecord epochFromLine(const nlohmann::json& line);
ProbeTrace traceFromLine(const nlohmann::json& line);
ProbeBye byeFromLine(const nlohmann::json& line);
ProbeSlowStep slowStepFromLine(const nlohmann::json& line);
// The step a line names ("step"); -1 when it names none.
int64_t stepOfLine(const nlohmann::json& line);
// A note's level and text.
LogLevel noteLevel(const nlohmann::json& line);
std::string noteText(const nlohmann::json& line);

} // namespace ts::scriptrun
