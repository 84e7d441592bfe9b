#pragma once
// A request to stop that another thread makes (the GUI's Cancel, Ctrl-C):
// long work that is given one looks at it between stages and inside long
// loops, and stops by throwing Cancelled, which unwinds like any error and is
// caught where the work was started.
#include <atomic>
#include <stdexcept>

namespace ts {

struct Cancelled : std::runtime_error {
    explicit Cancelled(const char* what = "cancelled") : std::runtime_error(what) {}
};

class CancelFlag {
public:
    void request() { requested_.store(true, std::memory_order_release); }
    bool requested() const { return requested_.load(std::memory_order_acquire); }
    // Throws Cancelled once a stop was requested.
    void check() const {
        if (requested()) throw Cancelled();
    }

private:
    std::atomic<bool> requested_{false};
};

// For work whose flag is optional (null: it cannot be cancelled).
inline void checkCancel(const CancelFlag* flag) {
    if (flag) flag->check();
}

} // namespace ts
