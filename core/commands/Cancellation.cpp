#include "commands/Cancellation.h"

#include <mutex>

#include "commands/Commands.h"

namespace ts {
namespace {

std::mutex g_mutex;
std::function<void()> g_cancel;

} // namespace

CancelRegistration::CancelRegistration(std::function<void()> cancel) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_cancel = std::move(cancel);
}

CancelRegistration::~CancelRegistration() {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_cancel = nullptr;
}

void cancelRunningExperiment() {
    // Called from a signal-watching thread, never from the signal handler
    // itself; the lock keeps the registration alive while it is used.
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_cancel) g_cancel();
}

} // namespace ts
