#include "util/BackgroundWrites.h"

#include <mutex>

#include "util/ThreadPool.h"

namespace ts {
namespace {

// One group for the process, made after the shared pool and so ended before
// it: the writes still queued at exit run to their end.
struct Writes {
    std::mutex mutex; // run() and wait() of the group come from any thread
    TaskGroup group{ThreadPool::shared()};
};

Writes& writes() {
    static Writes instance;
    return instance;
}

} // namespace

void writeInBackground(std::function<void()> write) {
    Writes& w = writes();
    std::lock_guard<std::mutex> lock(w.mutex);
    w.group.run([write = std::move(write)] {
        try {
            write();
        } catch (...) {
            // A cache that cannot be written is only a slower next open.
        }
    });
}

void waitForBackgroundWrites() {
    Writes& w = writes();
    std::lock_guard<std::mutex> lock(w.mutex);
    w.group.wait();
}

} // namespace ts
