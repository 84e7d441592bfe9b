#pragma once
// CPU tensor memory through LibTorch's memory reporting (the mechanism behind
// torch.profiler's profile_memory): live and peak bytes always, and individual
// allocation/free events to a listener while one is set.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

namespace ts {

class MemoryTracker {
public:
    using Listener = std::function<void(int64_t delta_bytes, int64_t live_bytes)>;

    static std::shared_ptr<MemoryTracker> create();
    virtual ~MemoryTracker() = default;

    int64_t liveBytes() const;
    int64_t peakBytes() const;
    // Starts a new peak window at the current live bytes.
    void resetPeak();
    // Called on the allocating thread for every CPU allocation and free.
    // Thread-safe; an empty function removes the listener.
    void setListener(Listener listener);
    // Device (CUDA) allocator's allocated bytes as last reported to the
    // tracker (0 on CPU-only runs).
    int64_t deviceAllocatedBytes() const;

    // RAII: while alive, allocations on this thread (and work it launches on
    // LibTorch's intra-op pool) are reported to the tracker.
    class Scope {
    public:
        explicit Scope(const std::shared_ptr<MemoryTracker>& tracker);
        ~Scope();
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;
        struct Impl; // opaque; named by the thread's record of its Scopes

    private:
        std::unique_ptr<Impl> impl_;
    };

    // LibTorch reports to one receiver per thread, and Kineto takes any
    // receiver it finds for a profiler of its own ("already enabled"): while
    // Kineto records (KinetoRecorder), the calling thread's Scope steps aside
    // (suspend, then resume; no-ops without a Scope), its memory events go to
    // Kineto, and after resume the next CPU report sets the live bytes again
    // from its total (the CPU allocator's own count).
    static void suspendScopeOnThisThread();
    static void resumeScopeOnThisThread();

    // Implementation hooks (called by the reporting bridge).
    void report(int64_t delta_bytes, int64_t total_bytes = -1);
    void reportDevice(int64_t total_allocated);

protected:
    MemoryTracker() = default;

private:
    std::atomic<int64_t> live_{0};
    std::atomic<int64_t> peak_{0};
    std::atomic<int64_t> device_allocated_{0};
    std::atomic<bool> has_listener_{false};
    std::atomic<bool> resync_{false}; // the Scope stepped aside and is back
    std::mutex listener_mutex_;
    Listener listener_;
};

} // namespace ts
