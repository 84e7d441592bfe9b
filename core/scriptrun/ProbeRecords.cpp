#include "scriptrun/ProbeRecords.h"

#include <cmath>
#include <limits>

#include "scriptrun/ProbeWire.h"

namespace ts::scriptrun {
namespace {

using nlohmann::json;

// The value of `key` as the line has it, for a message (never operator[] of a
// const object on a missing key: undefined).
std::string shown(const json& line, const char* key) {
    const auto it = line.find(key);
    return it == line.end() ? "missing" : it->dump(-1, ' ', false, json::error_handler_t::replace);
}

// A number the probe may leave out or send as null (not measured).
double number(const json& line, const char* key, double fallback = 0) {
    const auto it = line.find(key);
    if (it == line.end() || it->is_null()) return fallback;
    if (!it->is_number())
        throw ProbeWireError(std::string("\"") + key + "\" is not a number: " + shown(line, key));
    return it->get<double>();
}

// Counts and sizes: whole, not negative, within int64 (a double beyond 2^63
// would be undefined to convert).
int64_t count(const json& line, const char* key, int64_t fallback = 0) {
    const double value = number(line, key, double(fallback));
    if (!std::isfinite(value) || value < 0 || value >= 9.2e18 || value != std::floor(value))
        throw ProbeWireError(std::string("\"") + key + "\" is not a count: " + shown(line, key));
    return int64_t(value);
}

int smallCount(const json& line, const char* key, int fallback = 0) {
    const int64_t value = count(line, key, fallback);
    if (value > std::numeric_limits<int>::max())
        throw ProbeWireError(std::string("\"") + key + "\" is too large: " + shown(line, key));
    return int(value);
}

// Times: finite and not negative.
double millis(const json& line, const char* key) {
    const double value = number(line, key);
    if (!std::isfinite(value) || value < 0)
        throw ProbeWireError(std::string("\"") + key + "\" is not a duration: " + shown(line, key));
    return value;
}

std::string text(const json& line, const char* key) {
    const auto it = line.find(key);
    if (it == line.end() || it->is_null()) return {};
    if (!it->is_string())
        throw ProbeWireError(std::string("\"") + key + "\" is not text: " + shown(line, key));
    return it->get<std::string>();
}

} // namespace

ProbeHello helloFromLine(const json& line) {
    const auto version = line.find("v");
    if (version == line.end() || *version != kProbeWireVersion)
        throw ProbeWireError("the probe speaks version " + shown(line, "v") +
                             " of the wire format; this Trainscope reads version " +
                             std::to_string(kProbeWireVersion));
    ProbeHello h;
    h.rank = smallCount(line, "rank");
    h.local_rank = smallCount(line, "local_rank");
    h.world_size = std::max(1, smallCount(line, "world_size", 1));
    h.pid = count(line, "pid");
    h.python_version = text(line, "python");
    h.executable = text(line, "executable");
    h.torch_version = text(line, "torch");
    h.cuda_version = text(line, "cuda");
    h.device = text(line, "device");
    h.device_name = text(line, "device_name");
    h.script = text(line, "script");
    h.module = text(line, "module");
    h.cwd = text(line, "cwd");
    if (const auto it = line.find("argv"); it != line.end() && it->is_array())
        for (const auto& a : *it)
            if (a.is_string()) h.argv.push_back(a.get<std::string>());
    return h;
}

void applyDeviceLine(const json& line, ProbeHello& hello) {
    hello.device = text(line, "device");
    hello.device_name = text(line, "device_name");
}

StepRecord stepFromLine(const json& line) {
    StepRecord s;
    s.global_step = count(line, "step");
    s.epoch = smallCount(line, "epoch");
    s.wall_s = number(line, "wall_s");
    s.step_ms = millis(line, "step_ms");
    s.phases.data_ms = millis(line, "data_ms");
    s.phases.forward_ms = millis(line, "forward_ms");
    s.phases.backward_ms = millis(line, "backward_ms");
    s.phases.optimizer_ms = millis(line, "optimizer_ms");
    // What the phases leave of the step: the script's own work between them.
    const double measured = s.phases.total();
    s.phases.other_ms = std::max(0.0, s.step_ms - measured);
    s.batch_size = smallCount(line, "batch");
    s.images_per_sec = s.step_ms > 0 ? s.batch_size * 1000.0 / s.step_ms : 0;
    s.loss = number(line, "loss", std::numeric_limits<double>::quiet_NaN());
    s.lr = number(line, "lr");
    s.rss_bytes = count(line, "rss");
    s.device_bytes = count(line, "dev_alloc");
    s.device_peak_bytes = count(line, "dev_peak");
    s.profiled = line.value("profiled", false) == true;
    s.page_faults = -1;
    return s;
}

// On CUDA the host's phases are the time to queue the work; the device's
// (CUDA events) are what Trainscope's own runs measure there, so they replace
// them where the probe had events, and the rest of the step is `other`.
void applyLateLine(const json& line, StepRecord& step) {
    step.loss = number(line, "loss", step.loss);
    const std::pair<const char*, double PhaseTimes::*> phases[] = {
        {"device_forward_ms", &PhaseTimes::forward_ms},
        {"device_backward_ms", &PhaseTimes::backward_ms},
        {"device_optimizer_ms", &PhaseTimes::optimizer_ms}};
    for (const auto& [key, phase] : phases)
        if (line.contains(key) && !line[key].is_null()) step.phases.*phase = millis(line, key);
    step.phases.other_ms = 0;
    step.phases.other_ms = std::max(0.0, step.step_ms - step.phases.total());
}

MemoryByCategory memoryFromLine(const json& line) {
    MemoryByCategory m;
    for (const auto& field : kMemoryCategoryFields)
        m.*field.bytes = count(line, field.key);
    return m;
}

EpochRecord epochFromLine(const json& line) {
    EpochRecord e;
    e.epoch = smallCount(line, "epoch");
    e.steps = count(line, "steps");
    e.epoch_time_s = number(line, "epoch_time_s");
    return e;
}

ProbeTrace traceFromLine(const json& line) {
    ProbeTrace t;
    t.rank = smallCount(line, "rank");
    t.cycle = smallCount(line, "cycle");
    t.path = text(line, "path");
    if (t.path.empty()) throw ProbeWireError("a trace line without a \"path\"");
    t.first_step = count(line, "first_step");
    t.last_step = count(line, "last_step");
    return t;
}

ProbeBye byeFromLine(const json& line) {
    ProbeBye b;
    b.steps = count(line, "steps");
    b.status = text(line, "status");
    const double code = number(line, "exit_code");
    if (!std::isfinite(code) || std::fabs(code) > 65535 || code != std::floor(code))
        throw ProbeWireError("\"exit_code\" is not an exit status: " + shown(line, "exit_code"));
    b.exit_code = int(code);
    b.error = text(line, "error");
    b.overhead_us_per_step = number(line, "overhead_us_per_step");
    return b;
}

ProbeSlowStep slowStepFromLine(const json& line) {
    ProbeSlowStep s;
    s.step = count(line, "step");
    s.step_ms = millis(line, "step_ms");
    s.median_ms = millis(line, "median_ms");
    s.upper_ms = millis(line, "upper_ms");
    s.trace_steps = smallCount(line, "trace_steps");
    return s;
}

int64_t stepOfLine(const json& line) {
    return line.contains("step") ? count(line, "step") : -1;
}

LogLevel noteLevel(const json& line) {
    const std::string level = text(line, "level");
    return level == "error"     ? LogLevel::Error
           : level == "warning" ? LogLevel::Warning
                                : LogLevel::Info;
}

std::string noteText(const json& line) {
    return text(line, "text");
}

} // namespace ts::scriptrun
