#include "data/BatchPrefetcher.h"

namespace ts {

BatchPrefetcher::BatchPrefetcher(Producer produce, int64_t first, int64_t end, int workers,
                                 int prefetch)
    : produce_(std::move(produce)), first_(first), end_(end), prefetch_(size_t(prefetch)),
      lanes_(size_t(workers)) {
    threads_.reserve(size_t(workers));
    try {
        for (size_t w = 0; w < size_t(workers); ++w)
            threads_.emplace_back([this, w] { work(w); });
    } catch (...) {
        stop();
        for (auto& thread : threads_)
            thread.join();
        throw;
    }
}

BatchPrefetcher::~BatchPrefetcher() {
    stop();
    for (auto& thread : threads_)
        thread.join();
}

void BatchPrefetcher::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopped_ = true;
    }
    ready_changed_.notify_all();
    room_changed_.notify_all();
}

std::optional<Batch> BatchPrefetcher::take(int64_t index) {
    Lane& lane = lanes_[size_t((index - first_) % int64_t(lanes_.size()))];
    std::unique_lock<std::mutex> lock(mutex_);
    ready_changed_.wait(lock, [&] { return stopped_ || !lane.ready.empty() || lane.error; });
    if (stopped_) return std::nullopt;
    if (lane.ready.empty()) std::rethrow_exception(lane.error);
    Batch batch = std::move(lane.ready.front());
    lane.ready.pop_front();
    lock.unlock();
    room_changed_.notify_all();
    return batch;
}

void BatchPrefetcher::work(size_t worker) {
    Lane& lane = lanes_[worker];
    const auto stride = int64_t(lanes_.size());
    for (int64_t index = first_ + int64_t(worker); index < end_; index += stride) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            room_changed_.wait(lock, [&] { return stopped_ || lane.ready.size() < prefetch_; });
            if (stopped_) return;
        }
        std::optional<Batch> batch;
        std::exception_ptr error;
        try {
            batch = produce_(index);
        } catch (...) {
            error = std::current_exception();
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (stopped_) return;
            if (error)
                lane.error = error;
            else
                lane.ready.push_back(std::move(*batch));
        }
        ready_changed_.notify_all();
        if (error) return;
    }
}

} // namespace ts
