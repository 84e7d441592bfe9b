#include "scriptrun/ProbeRank.h"

#include <cmath>
#include <memory>

#include "scriptrun/ProbeWire.h"
#include "trace/ChromeTraceReader.h"

namespace ts::scriptrun {
namespace {

// Bad lines said one by one up to here; the rest only counted.
constexpr int kBadLinesSaid = 5;

} // namespace

ProbeRank::ProbeRank(TrainerObserver& observer, HelloHandler on_hello,
                     std::filesystem::path trace_dir, int warmup_steps_excluded)
    : observer_(observer), on_hello_(std::move(on_hello)), trace_dir_(std::move(trace_dir)),
      summary_(warmup_steps_excluded) {}

void ProbeRank::onLine(std::string_view text) {
    ++line_number_;
    if (text.empty()) return; // the probe ends a line cut by Ctrl-C with one of its own
    try {
        const ProbeLine line = parseProbeLine(text);
        if (!hello_ && line.type != ProbeLineType::Hello)
            throw ProbeWireError("a line before the probe's hello");
        if (line.type != ProbeLineType::Hello && line.type != ProbeLineType::Device) start();
        apply(line.type, line.body);
    } catch (const ProbeWireError& e) {
        warnBadLine(e.what());
    } catch (const nlohmann::json::exception& e) { // a dump() of text that is not UTF-8
        warnBadLine(e.what());
    }
}

void ProbeRank::warnBadLine(const std::string& what) {
    if (++bad_lines_ > kBadLinesSaid) return;
    const std::string rank = hello_ ? "rank " + std::to_string(hello_->rank) + "'s probe" : "probe";
    observer_.onMessage(LogLevel::Warning, "line " + std::to_string(line_number_) + " from the " +
                                               rank + " skipped: " + what);
}

void ProbeRank::apply(ProbeLineType type, const nlohmann::json& line) {
    switch (type) {
    case ProbeLineType::Hello:
        if (hello_) throw ProbeWireError("a second hello");
        hello_ = helloFromLine(line);
        return;
    case ProbeLineType::Device:
        if (!started_) applyDeviceLine(line, *hello_);
        start();
        return;
    case ProbeLineType::Step:
        takeStep(stepFromLine(line));
        return;
    case ProbeLineType::Late:
        if (held_ && held_->global_step == stepOfLine(line)) applyLateLine(line, *held_);
        return;
    case ProbeLineType::Memory: {
        const int64_t step = stepOfLine(line);
        memory_ = memoryFromLine(line);
        if (held_ && held_->global_step == step) held_->memory = memory_;
        return;
    }
    case ProbeLineType::Epoch:
        takeEpoch(epochFromLine(line));
        return;
    case ProbeLineType::Trace:
        takeTrace(traceFromLine(line));
        return;
    case ProbeLineType::Slow: {
        const ProbeSlowStep slow = slowStepFromLine(line);
        if (held_ && held_->global_step == slow.step) held_->slow = true;
        char text[256];
        std::snprintf(text, sizeof text,
                      "slow step %lld: %.1f ms, %.1fx the recent median of %.1f ms (noise "
                      "reaches %.1f ms); tracing the next %d steps",
                      static_cast<long long>(slow.step), slow.step_ms,
                      slow.median_ms > 0 ? slow.step_ms / slow.median_ms : 0.0, slow.median_ms,
                      slow.upper_ms, slow.trace_steps);
        observer_.onMessage(LogLevel::Warning, text);
        return;
    }
    case ProbeLineType::Snapshot:
        observer_.onMessage(LogLevel::Info, "memory snapshot at step " +
                                                std::to_string(stepOfLine(line)) + ": " +
                                                line.value("path", std::string()));
        return;
    case ProbeLineType::Note:
        observer_.onMessage(noteLevel(line), noteText(line));
        return;
    case ProbeLineType::Bye:
        flushStep();
        bye_ = byeFromLine(line);
        return;
    case ProbeLineType::Other:
        return;
    }
}

void ProbeRank::start() {
    if (started_ || !hello_) return;
    started_ = true;
    observer_.onRunStarted(on_hello_(*hello_));
}

void ProbeRank::takeStep(StepRecord step) {
    flushStep();
    step.step = step.global_step - epoch_first_step_;
    if (step.step < 0) step.step = 0; // an epoch line for a later step than this one
    step.memory = memory_;
    held_ = step;
}

void ProbeRank::flushStep() {
    if (!held_) return;
    StepRecord step = *held_;
    held_.reset();
    ++steps_;
    last_wall_s_ = step.wall_s;
    last_lr_ = step.lr;
    epoch_samples_ += step.batch_size;
    epoch_ms_ += step.step_ms;
    if (std::isfinite(step.loss)) {
        epoch_loss_sum_ += step.loss;
        ++epoch_losses_;
    }
    summary_.addStep(step);
    observer_.onStep(step);
}

void ProbeRank::takeEpoch(EpochRecord epoch) {
    flushStep();
    epoch.images_per_sec = epoch_ms_ > 0 ? epoch_samples_ * 1000.0 / epoch_ms_ : 0;
    epoch.train_loss = epoch_losses_ ? epoch_loss_sum_ / double(epoch_losses_)
                                     : std::numeric_limits<double>::quiet_NaN();
    epoch.train_accuracy = std::numeric_limits<double>::quiet_NaN();
    epoch.lr = last_lr_;
    epoch_first_step_ = steps_;
    epoch_samples_ = epoch_ms_ = epoch_loss_sum_ = 0;
    epoch_losses_ = 0;
    summary_.addEpoch(epoch);
    observer_.onEpoch(epoch);
}

// The probe's torch.profiler saved the cycle; it is read like any trace and
// kept verbatim as the run's trace file for that window.
void ProbeRank::takeTrace(const ProbeTrace& trace) {
    ProfileCapture capture;
    capture.window = windows_;
    capture.first_step = trace.first_step;
    capture.last_step = trace.last_step;
    capture.recorder = "kineto";
    const std::filesystem::path path = std::filesystem::path(trace.path).lexically_normal();
    std::error_code ec;
    if (path.parent_path() != trace_dir_.lexically_normal() ||
        !std::filesystem::is_regular_file(path, ec))
        throw ProbeWireError("a trace that is not a file in " + trace_dir_.string() + ": " +
                             trace.path);
    try {
        capture.trace = readChromeTraceFile(trace.path);
    } catch (const std::exception& e) {
        observer_.onMessage(LogLevel::Warning,
                            "the trace of steps " + std::to_string(trace.first_step) + "-" +
                                std::to_string(trace.last_step) + " cannot be read: " + e.what());
        return;
    }
    capture.trace.source = "torch.profiler (torch " + (hello_ ? hello_->torch_version : "") + ")";
    capture.kineto_file = std::make_shared<const std::filesystem::path>(trace.path);
    ++windows_;
    observer_.onProfile(capture);
}

void ProbeRank::endOfStream() {
    start();
    flushStep();
    if (bad_lines_ > kBadLinesSaid)
        observer_.onMessage(LogLevel::Warning, std::to_string(bad_lines_) +
                                                   " lines from the probe were skipped in all");
}

RunSummary ProbeRank::summary(RunStatus status, const std::string& error,
                              double total_time_s) const {
    return summary_.build(status, error, total_time_s);
}

} // namespace ts::scriptrun
