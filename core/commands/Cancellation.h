#pragma once
// What cancelRunningExperiment() (Ctrl-C in trainscope-cli) stops: the
// command that is running registers how to cancel itself for its lifetime.
// One registration at a time; no torch.
#include <functional>

namespace ts {

class CancelRegistration {
public:
    explicit CancelRegistration(std::function<void()> cancel);
    ~CancelRegistration();
    CancelRegistration(const CancelRegistration&) = delete;
    CancelRegistration& operator=(const CancelRegistration&) = delete;
};

} // namespace ts
