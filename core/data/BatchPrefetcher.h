#pragma once
// Background production of a contiguous range of batches by N threads:
// batch first+k is made by worker k % N, each worker keeps at most `prefetch`
// finished batches in its own queue, and take() hands them out in order.
// Owned by one consumer thread; stop() may be called from any thread.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "data/DataLoader.h"

namespace ts {

class BatchPrefetcher {
public:
    using Producer = std::function<Batch(int64_t index)>;

    // Starts the workers on batches [first, end).
    BatchPrefetcher(Producer produce, int64_t first, int64_t end, int workers, int prefetch);
    ~BatchPrefetcher(); // stops and joins
    BatchPrefetcher(const BatchPrefetcher&) = delete;
    BatchPrefetcher& operator=(const BatchPrefetcher&) = delete;

    // Blocks until batch `index` is ready; indices must be taken in order.
    // nullopt once stopped; rethrows the producer's exception for that batch.
    std::optional<Batch> take(int64_t index);
    // Wakes every waiting thread; workers exit after their current batch.
    void stop();

private:
    struct Lane {
        std::deque<Batch> ready;
        std::exception_ptr error; // set when producing the lane's next batch failed
    };
    void work(size_t worker);

    Producer produce_;
    int64_t first_, end_;
    size_t prefetch_;
    std::mutex mutex_;
    std::condition_variable ready_changed_; // a batch (or error) was queued
    std::condition_variable room_changed_;  // a batch was taken
    std::vector<Lane> lanes_;
    bool stopped_ = false;
    std::vector<std::thread> threads_;
};

} // namespace ts
