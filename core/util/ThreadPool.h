#pragma once
// The one pool of threads for the core's parallel work (trace reading's
// passes, analysis, search): as many threads as the process may run on
// (usableCores(), the affinity mask), started on first use. Work reaches it
// through a TaskGroup, whose tasks all end before wait() returns, or through
// parallelFor. Built on std::thread, std::mutex and std::condition_variable
// only, so that ThreadSanitizer sees every hand-over (tests/tsan).
//
// A group's wait() runs the group's tasks that no pool thread has started
// yet itself: a task may start and wait for groups of its own, and a busy,
// a small or a missing pool (no thread could be started) only makes the work
// run on fewer threads, never wait forever.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ts {

class TaskGroup;

class ThreadPool {
public:
    // The process's pool: usableCores() threads, at most 64.
    static ThreadPool& shared();
    // `threads` workers, fewer when the system gives fewer (0: every task
    // runs in its group's wait()).
    explicit ThreadPool(unsigned threads);
    ~ThreadPool(); // joins the workers once the tasks they started are done
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    unsigned size() const { return unsigned(workers_.size()); }

    struct Task {
        std::function<void()> work;
        TaskGroup* group;
        bool claimed = false; // by a worker or by the group's wait() (under the pool's lock)
    };

private:
    friend class TaskGroup;
    void enqueue(std::shared_ptr<Task> task);
    void workerLoop();

    std::mutex mutex_;
    std::condition_variable queued_;
    std::condition_variable finished_;
    std::vector<std::shared_ptr<Task>> queue_; // FIFO from queue_head_
    size_t queue_head_ = 0;
    bool stopping_ = false;
    std::vector<std::thread> workers_;
};

class TaskGroup {
public:
    explicit TaskGroup(ThreadPool& pool = ThreadPool::shared());
    ~TaskGroup(); // waits; an exception no wait() took is dropped
    TaskGroup(const TaskGroup&) = delete;
    TaskGroup& operator=(const TaskGroup&) = delete;

    // Queues `work` on the pool; it may run on any of its threads, or in wait().
    void run(std::function<void()> work);
    // Returns once every task run() queued has ended; rethrows the first
    // exception one of them threw.
    void wait();

private:
    friend class ThreadPool;
    ThreadPool& pool_;
    std::vector<std::shared_ptr<ThreadPool::Task>> tasks_;
    size_t running_ = 0; // started by a worker and not ended (under pool_.mutex_)
    std::exception_ptr error_;
};

// work(i) for i in [0, count), on this thread and up to `max_threads - 1` of
// the pool's, each taking the next index: for passes over large in-memory
// data. An exception in one stops the others taking more and is rethrown.
template <typename Work> void parallelFor(size_t count, unsigned max_threads, const Work& work) {
    std::atomic<size_t> next{0};
    auto drain = [&] {
        for (size_t i; (i = next.fetch_add(1)) < count;) {
            try {
                work(i);
            } catch (...) {
                next.store(count);
                throw;
            }
        }
    };
    TaskGroup group;
    size_t helpers = max_threads > 1 ? max_threads - 1 : 0;
    helpers = std::min<size_t>({helpers, count > 0 ? count - 1 : 0, ThreadPool::shared().size()});
    for (size_t h = 0; h < helpers; ++h)
        group.run(drain);
    drain(); // on a throw, ~TaskGroup waits for the helpers before `next` goes
    group.wait();
}

} // namespace ts
