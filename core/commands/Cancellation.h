#pragma once
// What cancelRunningExperiment() (Ctrl-C in trainscope-cli) stops: the
// command that is running registers how to cancel itself for its lifetime.
// Registrations nest (a sweep over process counts launches a data-parallel
// job inside its own run): Ctrl-C reaches every live one, innermost first, so
// the job's ranks stop and the sweep runs no further point. Cancellation is
// sticky: a registration made after Ctrl-C is cancelled at once. No torch.
#include <functional>

namespace ts {

class CancelRegistration {
public:
    explicit CancelRegistration(std::function<void()> cancel);
    ~CancelRegistration();
    CancelRegistration(const CancelRegistration&) = delete;
    CancelRegistration& operator=(const CancelRegistration&) = delete;
};

// True once cancelRunningExperiment() was called in this process.
bool cancelRequested();
// Forgets an earlier cancellation (tests run many commands in one process).
void resetCancellationForTests();

} // namespace ts
