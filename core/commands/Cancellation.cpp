#include "commands/Cancellation.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include "commands/Commands.h"

namespace ts {
namespace {

std::mutex g_mutex;
// Live registrations, outermost first; each is removed by its own destructor
// (they end in reverse order of their start, being scoped objects).
std::vector<std::pair<const CancelRegistration*, std::function<void()>>> g_cancel;
// Sticky: a Ctrl-C that came before a command registered still reaches it.
bool g_requested = false;

} // namespace

CancelRegistration::CancelRegistration(std::function<void()> cancel) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_cancel.emplace_back(this, std::move(cancel));
    if (g_requested && g_cancel.back().second) g_cancel.back().second();
}

CancelRegistration::~CancelRegistration() {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_cancel.erase(std::remove_if(g_cancel.begin(), g_cancel.end(),
                                  [this](const auto& entry) { return entry.first == this; }),
                   g_cancel.end());
}

void cancelRunningExperiment() {
    // Called from a signal-watching thread, never from the signal handler
    // itself; the lock keeps the registrations alive while they are used.
    std::lock_guard<std::mutex> lock(g_mutex);
    g_requested = true;
    for (auto it = g_cancel.rbegin(); it != g_cancel.rend(); ++it)
        if (it->second) it->second();
}

bool cancelRequested() {
    std::lock_guard<std::mutex> lock(g_mutex);
    return g_requested;
}

void resetCancellationForTests() {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_requested = false;
}

} // namespace ts
