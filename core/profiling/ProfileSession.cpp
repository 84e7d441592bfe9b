#include "profiling/ProfileSession.h"

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include "env/TorchCompat.h"
#include "profiling/MemoryTracker.h"
#include "profiling/OpCollector.h"
#include "profiling/ProfileSchedule.h"
#include "trace/ChromeTraceReader.h"
#include "trace/FlopModel.h"
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

// Kineto's memory events are always on: LibTorch's CPU allocator keeps its
// count of live bytes (which the MemoryTracker reads back after a window)
// only while the receiver of its reports asks for them.
std::unique_ptr<KinetoRecorder> kinetoFor(const ProfileConfig& config, bool cuda,
                                          std::string* why) {
    if (!config.enabled || config.recorder == "trainscope") return nullptr;
    if (!KinetoRecorder::available(why)) return nullptr;
    KinetoOptions o;
    o.record_shapes = config.record_shapes;
    o.profile_memory = true;
    o.cuda = cuda;
    return std::make_unique<KinetoRecorder>(o);
}

// The file Kineto saves a window to, until the run directory takes it.
std::shared_ptr<const std::filesystem::path> kinetoFile(int window) {
    static std::atomic<int> serial{0};
    auto* path = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                           ("trainscope-kineto-" + std::to_string(::getpid()) +
                                            "-" + std::to_string(serial++) + "-w" +
                                            std::to_string(window) + ".json"));
    return {path, [](const std::filesystem::path* p) {
                std::error_code ignored;
                std::filesystem::remove(*p, ignored);
                delete p;
            }};
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
    std::vector<std::string> infos;

    std::string kineto_absent;              // why Kineto does not record (before kineto:
                                            // kinetoFor() fills it)
    std::unique_ptr<KinetoRecorder> kineto; // null: the collector records
    KinetoRange step_range;                 // ProfilerStep#N while recorded

    Impl(const ProfileConfig& c, bool with_cuda, std::shared_ptr<MemoryTracker> tracker)
        : config(c), cuda(with_cuda), schedule(c),
          collector(collectorOptions(c, with_cuda, tracker), tracker),
          kineto(kinetoFor(c, with_cuda, &kineto_absent)) {
        if (!config.enabled || kineto) return;
        if (config.recorder == "kineto")
            warnings.push_back("profile.recorder is \"kineto\", but " + kineto_absent +
                               ": Trainscope's own profiler records the trace instead.");
        else if (config.recorder == "auto")
            infos.push_back("Profiling: Trainscope's own profiler records the trace (" +
                            kineto_absent + ").");
    }

    void beginStep(int64_t global);
    bool beginKinetoStep(int64_t global);
    void endKinetoStep(bool found_batch);
    void closeWindow();
    void closeKinetoWindow(ProfileCapture& capture);
    void deliver(TrainerObserver& observer);
};

// Kineto's part of a step's start; false when this step is not profiled
// after all (LibTorch refused to start).
bool ProfileSession::Impl::beginKinetoStep(int64_t global) {
    try {
        if (action == ProfileAction::Warmup) kineto->prepare();
        if (isRecord(action) && !kineto->running()) kineto->start();
    } catch (const std::exception& e) {
        warnings.push_back("Profiling of step " + std::to_string(global) +
                           " skipped: LibTorch's profiler did not start (" + e.what() + ").");
        return false;
    }
    // Still open when the step's previous attempt found no data.
    if (isRecord(action) && !step_range.open())
        step_range = KinetoRange("ProfilerStep#" + std::to_string(global));
    return true;
}

void ProfileSession::Impl::endKinetoStep(bool found_batch) {
    if (!found_batch) return; // the same step begins again
    step_range.end();
    // Stopped at once: nothing of the next step gets into the window.
    if (action == ProfileAction::RecordAndSave) closeWindow();
}

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
    if (kineto) {
        if (action != ProfileAction::None && !beginKinetoStep(global)) action = ProfileAction::None;
    } else if (action != ProfileAction::None && !collector.attached()) {
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
    step_begin_ns = OpCollector::now();
    if (kineto) return;
    collector.markMainThread();
    collector.setCollecting(action != ProfileAction::None, global);
}

void ProfileSession::Impl::closeWindow() {
    window_open = false;
    window_closing = false;
    if (steps.empty()) {
        if (kineto && kineto->running()) kineto->stop();
        collector.clear();
        return;
    }
    ProfileCapture capture;
    capture.window = next_window++;
    capture.first_step = steps.front().step;
    capture.last_step = steps.back().step;
    if (kineto) {
        closeKinetoWindow(capture);
        if (!capture.kineto_file) return;
    } else {
        const int64_t origin = steps.front().start_ns;
        capture.trace = collector.harvest(origin);
        for (const StepMark& s : steps)
            capture.trace.steps.push_back(StepMark{s.step, s.start_ns - origin, s.end_ns - origin});
        capture.trace.origin_ns = origin + OpCollector::unixOffsetNs();
        capture.trace.kineto.distributed_info = distributed_info;
        capture.trace.finalize();
        if (!kineto_absent.empty())
            capture.trace.notes.push_back("recorded by Trainscope's profiler: " + kineto_absent);
    }
    Trace& trace = capture.trace;
    const int64_t planned = schedule.activeSteps();
    if (static_cast<int64_t>(steps.size()) < planned)
        trace.notes.push_back(
            "window cut short by the end of the run: " + std::to_string(steps.size()) + " of " +
            std::to_string(planned) + " active steps recorded");
    if (!config.record_shapes)
        trace.notes.push_back("record_shapes is off: no input shapes and no FLOPs");
    steps.clear();
    if (config.with_flops) annotateCosts(trace);
    ready = std::move(capture);
}

// Kineto saves the window; Trainscope reads it back like any trace.
void ProfileSession::Impl::closeKinetoWindow(ProfileCapture& capture) {
    step_range.end();
    auto file = kinetoFile(capture.window);
    try {
        if (!distributed_info.empty()) kineto->addMetadata("distributedInfo", distributed_info);
        kineto->stopAndSave(*file);
        capture.trace = readChromeTraceFile(*file);
    } catch (const std::exception& e) {
        warnings.push_back("Profiling window " + std::to_string(capture.window) + " (steps " +
                           std::to_string(capture.first_step) + "-" +
                           std::to_string(capture.last_step) + ") lost: " + e.what());
        steps.clear();
        return;
    }
    capture.kineto_file = std::move(file);
    capture.recorder = "kineto";
    capture.trace.source = "kineto (LibTorch " + std::string(TORCH_VERSION) + ")";
}

void ProfileSession::Impl::deliver(TrainerObserver& observer) {
    for (const std::string& i : infos)
        observer.onMessage(LogLevel::Info, i);
    infos.clear();
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

void ProfileSession::stepEnd(int64_t global_step, TrainerObserver& observer, bool found_batch) {
    Impl& s = *impl_;
    if (!s.config.enabled) return;
    if (s.in_step) {
        if (!s.kineto) s.collector.setCollecting(false, global_step);
        s.in_step = false;
        if (s.recording && (found_batch || !s.kineto))
            s.steps.push_back(StepMark{global_step, s.step_begin_ns, OpCollector::now()});
    }
    if (s.kineto && s.recording)
        s.endKinetoStep(found_batch);
    else if (s.action == ProfileAction::RecordAndSave)
        s.window_closing = true;
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
    if (s.kineto && s.kineto->running()) s.kineto->stop();
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

bool ProfileSession::usesKineto() const {
    return static_cast<bool>(impl_->kineto);
}

ProfileSession::Range::Range(ProfileSession* session, const char* name)
    : session_(session), name_(name) {
    if (!session_) return;
    if (session_->impl_->cuda) compat::nvtxPush(name_);
    if (!session_->impl_->recording) return;
    if (session_->impl_->kineto) {
        kineto_ = KinetoRange(name_);
        return;
    }
    active_ = true;
    start_ns_ = OpCollector::now();
}

ProfileSession::Range::~Range() {
    if (!session_) return;
    kineto_.end();
    if (active_ && session_->impl_->recording)
        session_->impl_->collector.addAnnotation(name_, start_ns_, OpCollector::now());
    if (session_->impl_->cuda) compat::nvtxPop();
}

} // namespace ts
