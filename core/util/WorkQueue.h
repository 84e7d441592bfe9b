#pragma once
// Items 0..count-1 handed out one at a time to this thread and up to
// `threads - 1` others, which are joined before it returns. Fewer threads
// when the system gives none: the work is done all the same. For passes
// over large in-memory data (a trace index's sections and checksum blocks).
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <system_error>
#include <thread>
#include <vector>

namespace ts {

template <typename Work> void runWorkQueue(size_t count, unsigned threads, const Work& work) {
    std::atomic<size_t> next{0};
    auto drain = [&] {
        for (size_t i; (i = next.fetch_add(1)) < count;)
            work(i);
    };
    std::vector<std::thread> helpers;
    const size_t extra = std::min<size_t>(threads > 0 ? threads - 1 : 0, count > 0 ? count - 1 : 0);
    for (size_t t = 0; t < extra; ++t) {
        try {
            helpers.emplace_back(drain);
        } catch (const std::system_error&) {
            break; // no thread to be had: the others drain the queue
        }
    }
    drain();
    for (std::thread& t : helpers)
        t.join();
}

} // namespace ts
