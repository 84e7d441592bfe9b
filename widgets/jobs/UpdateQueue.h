#pragma once
// A worker-to-GUI hand-over of typed values (finished sweep points, ladder
// rungs): the worker pushes under a mutex, the owner's drain takes everything
// in push order. Neither side waits on the other for long.
#include <mutex>
#include <utility>
#include <vector>

namespace ts::gui {

template <typename Update> class UpdateQueue {
public:
    void push(Update update) {
        std::lock_guard<std::mutex> lock(mutex_);
        pending_.push_back(std::move(update));
    }
    // Everything pushed since the previous call, oldest first.
    std::vector<Update> take() {
        std::vector<Update> taken;
        std::lock_guard<std::mutex> lock(mutex_);
        std::swap(taken, pending_);
        return taken;
    }

private:
    std::mutex mutex_;
    std::vector<Update> pending_;
};

} // namespace ts::gui
