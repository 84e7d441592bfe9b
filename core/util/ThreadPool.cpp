#include "util/ThreadPool.h"

#include <algorithm>
#include <system_error>
#include <utility>

#include "util/CpuAffinity.h"

namespace ts {
namespace {

// Runs a task its caller claimed (outside the pool's lock); what it threw.
std::exception_ptr runClaimed(ThreadPool::Task& task) {
    std::exception_ptr error;
    try {
        task.work();
    } catch (...) {
        error = std::current_exception();
    }
    task.work = nullptr; // what it captured goes before its group may
    return error;
}

} // namespace

ThreadPool& ThreadPool::shared() {
    static ThreadPool pool(unsigned(std::clamp(usableCores(), 1, 64)));
    return pool;
}

ThreadPool::ThreadPool(unsigned threads) {
    workers_.reserve(threads);
    for (unsigned t = 0; t < threads; ++t) {
        try {
            workers_.emplace_back([this] { workerLoop(); });
        } catch (const std::system_error&) {
            break; // the system gives no more: the groups' wait() runs the rest
        }
    }
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    queued_.notify_all();
    for (std::thread& worker : workers_)
        worker.join();
}

void ThreadPool::enqueue(std::shared_ptr<Task> task) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.push_back(std::move(task));
    }
    queued_.notify_one();
}

void ThreadPool::workerLoop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        queued_.wait(lock, [this] { return stopping_ || queue_head_ < queue_.size(); });
        if (queue_head_ == queue_.size()) return; // stopping, nothing left
        std::shared_ptr<Task> task = std::move(queue_[queue_head_++]);
        if (queue_head_ == queue_.size()) {
            queue_.clear();
            queue_head_ = 0;
        }
        if (task->claimed) continue; // its group's wait() ran it
        task->claimed = true;
        TaskGroup& group = *task->group;
        ++group.running_;
        lock.unlock();
        std::exception_ptr error = runClaimed(*task);
        lock.lock();
        if (error && !group.error_) group.error_ = error;
        --group.running_;
        finished_.notify_all();
    }
}

TaskGroup::TaskGroup(ThreadPool& pool) : pool_(pool) {}

TaskGroup::~TaskGroup() {
    try {
        wait();
    } catch (...) {
        // Already unwinding, or nobody asked: the tasks have ended all the same.
    }
}

void TaskGroup::run(std::function<void()> work) {
    auto task = std::make_shared<ThreadPool::Task>();
    task->work = std::move(work);
    task->group = this;
    tasks_.push_back(task);
    pool_.enqueue(std::move(task));
}

void TaskGroup::wait() {
    std::unique_lock<std::mutex> lock(pool_.mutex_);
    for (const std::shared_ptr<ThreadPool::Task>& task : tasks_) {
        if (task->claimed) continue;
        task->claimed = true;
        lock.unlock();
        std::exception_ptr error = runClaimed(*task);
        lock.lock();
        if (error && !error_) error_ = error;
    }
    pool_.finished_.wait(lock, [this] { return running_ == 0; });
    tasks_.clear();
    std::exception_ptr error = std::exchange(error_, nullptr);
    lock.unlock();
    if (error) std::rethrow_exception(error);
}

} // namespace ts
