#pragma once

#include <mutex>
#include <utility>
#include <vector>

// Where the rank's thread puts a c10d work object (a collective handed to the
// Gloo process group) once it is done with it. In ThreadSanitizer builds the
// works are kept until the process group has joined its worker threads.
//
// A work, and through it the collective's tensors, is shared with one of
// Gloo's worker threads through an atomic reference count. The worker drops
// its two references (its queue slot, its `execute` argument) a moment after
// it marked the work completed, and c10d signals the work's condition
// variable after unlocking its mutex. The worker's decrements happen inside
// LibTorch, which is not instrumented, so TSan never sees that acquire: when
// the worker's decrement was the last and it freed the work, or a tensor only
// the work still held, TSan reported a data race against whatever the rank's
// thread had done to that memory after its wait (a reference-count
// decrement, LibTorch's `memcpy` of a tensor's sizes, a condition-variable
// wait); and when the rank's thread freed it, against the worker's late
// signal. Which came first was a matter of timing, so the reports came and
// went (tsan_distributed, docs/reliability.md), and the worker's stack was
// often a single unsymbolized frame of libtorch_cpu, which no suppression
// could name narrowly.
//
// Kept until after the join (which TSan does see), every free of them comes
// after everything either thread did to them. Outside TSan builds a work is
// dropped when retired: which thread frees it is of no consequence, and a
// long run must not keep one work per bucket per step. In TSan builds the
// programs are short.

#if defined(__SANITIZE_THREAD__)
#define TS_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TS_THREAD_SANITIZER 1
#endif
#endif

namespace ts {

// WorkPtr is c10::intrusive_ptr<c10d::Work>.
template <typename WorkPtr> class RetiredGlooWorks {
public:
    // Takes `work` (left empty) after its wait, or when it is abandoned.
    void retire(WorkPtr& work) {
        if (!work) return;
#ifdef TS_THREAD_SANITIZER
        const std::lock_guard<std::mutex> lock(mutex_);
        works_.push_back(std::move(work));
#endif
        work.reset();
    }

    // Drops what was kept; call it only once the process group's worker
    // threads have been joined (the group destroyed).
    void releaseAfterWorkersJoined() {
        std::vector<WorkPtr> works;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            works.swap(works_);
        }
    }

private:
    std::mutex mutex_;
    std::vector<WorkPtr> works_;
};

} // namespace ts
