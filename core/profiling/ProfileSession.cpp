#include "profiling/ProfileSession.h"

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "env/TorchCompat.h"
#include "profiling/FlopModel.h"
#include "profiling/MemoryTracker.h"
#include "profiling/OpCollector.h"
#include "profiling/ProfileSchedule.h"
#include "trace/Trace.h"

namespace ts {

namespace {
CollectorOptions collectorOptions(const ProfileConfig& config, bool cuda,
                                  const std::shared_ptr<MemoryTracker>& memory) {
    CollectorOptions o;
    o.record_shapes = config.record_shapes;
    o.memory = config.profile_memory && memory;
    o.cuda = cuda;
    o.max_events = config.max_trace_events;
    return o;
}

bool isRecord(ProfileAction a) {
    return a == ProfileAction::Record || a == ProfileAction::RecordAndSave;
}
} // namespace

// A window is delivered when the step after its last active step begins (or
// at finish()): the engine ends an epoch with a step that finds no batch and
// then begins the same global step again, and that aborted step must not
// close the window in place of the real one.
struct ProfileSession::Impl {
    ProfileConfig config;
    bool cuda = false;
    ProfileSchedule schedule;
    OpCollector collector;

    int64_t index = -1; // schedule position of the current step
    int64_t last_global = std::numeric_limits<int64_t>::min();
    ProfileAction action = ProfileAction::None;
    bool in_step = false;
    bool recording = false;
    int64_t step_begin_ns = 0;
    std::string distributed_info; // "" in one process

    bool window_open = false;
    bool window_closing = false; // its last active step has ended
    int next_window = 0;
    std::vector<StepMark> steps; // collector clock
    std::optional<ProfileCapture> ready;
    std::vector<std::string> warnings;

    Impl(const ProfileConfig& c, bool with_cuda, std::shared_ptr<MemoryTracker> memory)
        : config(c), cuda(with_cuda), schedule(c),
          collector(collectorOptions(c, with_cuda, memory), memory) {}

    void beginStep(int64_t global);
    void closeWindow();
    void deliver(TrainerObserver& observer);
};

void ProfileSession::Impl::beginStep(int64_t global) {
    const bool retry = global == last_global;
    if (retry) {
        // The previous attempt of this step found no data: forget its mark.
        if (!steps.empty() && steps.back().step == global) steps.pop_back();
        window_closing = false;
    } else {
        if (window_closing) closeWindow();
        ++index;
        last_global = global;
    }
    action = schedule.at(index);
    if (action != ProfileAction::None && !collector.attached()) {
        std::string why;
        if (!collector.attach(&why)) {
            warnings.push_back("Profiling of step " + std::to_string(global) + " skipped: " + why +
                               ".");
            action = ProfileAction::None;
        }
    }
    if (action == ProfileAction::None && !window_open && collector.attached()) collector.detach();
    if (isRecord(action) && !window_open) {
        collector.clear(); // what the warm-up steps collected
        window_open = true;
        steps.clear();
    }
    recording = isRecord(action);
    in_step = true;
    collector.markMainThread();
    step_begin_ns = OpCollector::now();
    collector.setCollecting(action != ProfileAction::None, global);
}

void ProfileSession::Impl::closeWindow() {
    window_open = false;
    window_closing = false;
    if (steps.empty()) {
        collector.clear();
        return;
    }
    const int64_t origin = steps.front().start_ns;
    ProfileCapture capture;
    capture.window = next_window++;
    capture.first_step = steps.front().step;
    capture.last_step = steps.back().step;
    capture.trace = collector.harvest(origin);
    Trace& trace = capture.trace;
    for (const StepMark& s : steps)
        trace.steps.push_back(StepMark{s.step, s.start_ns - origin, s.end_ns - origin});
    trace.origin_ns = origin + OpCollector::unixOffsetNs();
    trace.kineto.distributed_info = distributed_info;
    const int64_t planned = schedule.activeSteps();
    if (static_cast<int64_t>(steps.size()) < planned)
        trace.notes.push_back(
            "window cut short by the end of the run: " + std::to_string(steps.size()) + " of " +
            std::to_string(planned) + " active steps recorded");
    if (!config.record_shapes)
        trace.notes.push_back("record_shapes is off: no input shapes and no FLOPs");
    steps.clear();
    trace.finalize();
    if (config.with_flops) annotateCosts(trace);
    ready = std::move(capture);
}

void ProfileSession::Impl::deliver(TrainerObserver& observer) {
    for (const std::string& w : warnings)
        observer.onMessage(LogLevel::Warning, w);
    warnings.clear();
    if (!ready) return;
    ProfileCapture capture = std::move(*ready);
    ready.reset();
    observer.onProfile(capture);
}

ProfileSession::ProfileSession(const ProfileConfig& config, bool cuda,
                               std::shared_ptr<MemoryTracker> memory)
    : impl_(std::make_unique<Impl>(config, cuda, std::move(memory))) {}

ProfileSession::~ProfileSession() = default;

void ProfileSession::stepBegin(int64_t global_step) {
    if (impl_->config.enabled) impl_->beginStep(global_step);
}

void ProfileSession::stepEnd(int64_t global_step, TrainerObserver& observer) {
    Impl& s = *impl_;
    if (!s.config.enabled) return;
    if (s.in_step) {
        s.collector.setCollecting(false, global_step);
        s.in_step = false;
        if (s.recording)
            s.steps.push_back(StepMark{global_step, s.step_begin_ns, OpCollector::now()});
    }
    if (s.action == ProfileAction::RecordAndSave) s.window_closing = true;
    s.recording = false;
    s.deliver(observer);
}

namespace {

// A run shorter than the schedule's first window records nothing; without a
// word the user looks for a trace that was never written.
void warnNothingRecorded(const ProfileSession::Impl& s, TrainerObserver& observer) {
    constexpr int64_t kSearchLimit = 1000000;
    int64_t first = -1;
    for (int64_t i = 0; i < kSearchLimit && first < 0; ++i) {
        const ProfileAction action = s.schedule.at(i);
        if (action == ProfileAction::Record || action == ProfileAction::RecordAndSave) first = i;
    }
    // Reached but not recorded (another session was collecting): said already.
    if (first >= 0 && s.index >= first) return;
    std::string text =
        "profiling was on, but the run ended after " + std::to_string(s.index + 1) + " step(s)";
    if (first >= 0)
        text += ", before the first recorded step (step " + std::to_string(first + 1) +
                " of the schedule: skip_first, wait and warmup come first)";
    text += "; no trace was written. Lower profile.skip_first / wait / warmup or run more steps.";
    observer.onMessage(LogLevel::Warning, text);
}

} // namespace

void ProfileSession::finish(TrainerObserver& observer) {
    Impl& s = *impl_;
    if (!s.config.enabled) return;
    if (s.in_step) stepEnd(s.last_global, observer);
    if (s.window_open || s.window_closing) s.closeWindow();
    s.collector.detach();
    s.deliver(observer);
    if (s.next_window == 0) warnNothingRecorded(s, observer);
}

bool ProfileSession::recording() const {
    return impl_->recording;
}

void ProfileSession::setDistributedInfo(std::string json) {
    impl_->distributed_info = std::move(json);
}

ProfileSession::Range::Range(ProfileSession* session, const char* name)
    : session_(session), name_(name) {
    if (!session_) return;
    if (session_->impl_->cuda) compat::nvtxPush(name_);
    if (session_->impl_->recording) {
        active_ = true;
        start_ns_ = OpCollector::now();
    }
}

ProfileSession::Range::~Range() {
    if (!session_) return;
    if (active_ && session_->impl_->recording)
        session_->impl_->collector.addAnnotation(name_, start_ns_, OpCollector::now());
    if (session_->impl_->cuda) compat::nvtxPop();
}

} // namespace ts
