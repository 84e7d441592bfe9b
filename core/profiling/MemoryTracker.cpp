#include "profiling/MemoryTracker.h"

#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>

#include "env/TorchCompat.h"

namespace ts {

namespace {

struct TrackerInstance : MemoryTracker {};

using ReportTotal =
    compat::MemoryReportTotalOf<decltype(&c10::MemoryReportingInfoBase::reportMemoryUsage)>::type;

// LibTorch's allocators call this (through the thread's debug info) for every
// allocation and free while memoryProfilingEnabled() says so. Negative sizes
// are frees.
class ReportingBridge : public c10::MemoryReportingInfoBase {
public:
    explicit ReportingBridge(std::shared_ptr<MemoryTracker> tracker)
        : tracker_(std::move(tracker)) {}

    void reportMemoryUsage(void* /*ptr*/, int64_t alloc_size, ReportTotal total_allocated,
                           ReportTotal /*total_reserved*/, c10::Device device) override {
        if (device.is_cpu())
            tracker_->report(alloc_size, static_cast<int64_t>(total_allocated));
        else
            tracker_->reportDevice(static_cast<int64_t>(total_allocated));
    }

    bool memoryProfilingEnabled() const override { return true; }

private:
    std::shared_ptr<MemoryTracker> tracker_;
};

} // namespace

std::shared_ptr<MemoryTracker> MemoryTracker::create() {
    return std::make_shared<TrackerInstance>();
}

int64_t MemoryTracker::liveBytes() const {
    return live_.load(std::memory_order_relaxed);
}

int64_t MemoryTracker::peakBytes() const {
    return peak_.load(std::memory_order_relaxed);
}

int64_t MemoryTracker::deviceAllocatedBytes() const {
    return device_allocated_.load(std::memory_order_relaxed);
}

void MemoryTracker::resetPeak() {
    peak_.store(live_.load());
}

void MemoryTracker::setListener(Listener listener) {
    std::lock_guard<std::mutex> lock(listener_mutex_);
    listener_ = std::move(listener);
    has_listener_.store(static_cast<bool>(listener_));
}

void MemoryTracker::report(int64_t delta_bytes, int64_t total_bytes) {
    int64_t live = 0;
    if (total_bytes >= 0 && resync_.exchange(false)) {
        live = total_bytes;
        live_.store(live);
    } else {
        live = live_.fetch_add(delta_bytes) + delta_bytes;
    }
    int64_t peak = peak_.load(std::memory_order_relaxed);
    while (live > peak && !peak_.compare_exchange_weak(peak, live)) {
    }
    // The flag keeps the common case (no listener) free of the lock.
    if (!has_listener_.load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> lock(listener_mutex_);
    if (listener_) listener_(delta_bytes, live);
}

void MemoryTracker::reportDevice(int64_t total_allocated) {
    device_allocated_.store(total_allocated, std::memory_order_relaxed);
}

struct MemoryTracker::Scope::Impl {
    // The base class: Impl has linkage, ReportingBridge does not.
    std::shared_ptr<c10::MemoryReportingInfoBase> bridge;
    std::unique_ptr<c10::DebugInfoGuard> guard;
    std::shared_ptr<MemoryTracker> tracker;
    Impl* outer = nullptr; // the thread's Scope before this one
};

namespace {
thread_local MemoryTracker::Scope::Impl* t_scope = nullptr; // innermost on this thread
} // namespace

MemoryTracker::Scope::Scope(const std::shared_ptr<MemoryTracker>& tracker)
    : impl_(std::make_unique<Impl>()) {
    if (!tracker) return;
    impl_->bridge = std::make_shared<ReportingBridge>(tracker);
    impl_->tracker = tracker;
    impl_->guard =
        std::make_unique<c10::DebugInfoGuard>(c10::DebugInfoKind::PROFILER_STATE, impl_->bridge);
    impl_->outer = t_scope;
    t_scope = impl_.get();
}

MemoryTracker::Scope::~Scope() {
    if (impl_->bridge) t_scope = impl_->outer;
}

// The guard restores what was there before it, so it steps aside only while
// it is the innermost debug info (as when a window starts).
void MemoryTracker::suspendScopeOnThisThread() {
    if (t_scope) t_scope->guard.reset();
}

// Back in place, the tracker has missed what was reported meanwhile: the
// next CPU report's total sets its live bytes again.
void MemoryTracker::resumeScopeOnThisThread() {
    if (!t_scope || t_scope->guard) return;
    t_scope->guard =
        std::make_unique<c10::DebugInfoGuard>(c10::DebugInfoKind::PROFILER_STATE, t_scope->bridge);
    t_scope->tracker->resync_.store(true);
}

} // namespace ts
