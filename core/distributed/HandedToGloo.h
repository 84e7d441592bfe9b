#pragma once

#include <chrono>
#include <thread>

// Letting go of a c10d work object (a collective handed to the Gloo process
// group) so that, in ThreadSanitizer builds, this thread is the one that
// destroys it.
//
// A work object, and through it the collective's tensors, is shared with one
// of Gloo's worker threads through an atomic reference count. The worker
// drops its two references (its queue slot, its `execute` argument) a moment
// after it marked the work completed. Its decrement happens inside LibTorch,
// which is not instrumented, so TSan never sees that acquire: when the
// worker's decrement was the last and it freed the work, or a tensor only the
// work still held, TSan reported a data race against whatever this thread had
// done to that memory after the wait (a reference-count decrement, LibTorch's
// `memcpy` of a tensor's sizes, a condition-variable wait). Which side let go
// last was a matter of timing, so the reports came and went (tsan_distributed,
// docs/reliability.md), and the worker's stack is often a single unsymbolized
// frame of libtorch_cpu, which no suppression could name narrowly.
//
// Under TSan, this waits until the worker has let go before dropping the last
// reference, so every free happens on this thread, after what it did. Outside
// TSan builds nothing waits: which thread frees is of no consequence.

#if defined(__SANITIZE_THREAD__)
#define TS_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TS_THREAD_SANITIZER 1
#endif
#endif

namespace ts {

// `work` is a c10::intrusive_ptr<c10d::Work>, reset on return.
template <typename WorkPtr> void letGoOfGlooWork(WorkPtr& work) {
#ifdef TS_THREAD_SANITIZER
    // Only after a completed wait does the worker let go by itself; a failed
    // or timed-out work may still be running, hence the bound. Sleeps, not
    // yields: each look at the count is an event in this thread's TSan
    // history, and a spin of thousands of them pushed out the stacks TSan
    // needs to report a real race of this thread's (it then drops the report;
    // a planted race in the gradient hooks went unseen in half the runs).
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (work && work.use_count() > 1 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::microseconds(50));
#endif
    work.reset();
}

} // namespace ts
