#pragma once
// Terminal progress for `trainscope-cli run`: a one-line bar with images/s and
// ETA when stderr is a terminal, plain epoch lines otherwise.
#include <chrono>
#include <ostream>

#include "records/TrainerObserver.h"

namespace ts {

class ProgressPrinter : public TrainerObserver {
public:
    ProgressPrinter(std::ostream& out, bool interactive) : out_(out), interactive_(interactive) {}
    void onRunStarted(const RunInfo& info) override;
    void onStep(const StepRecord& step) override;
    void onEpoch(const EpochRecord& epoch) override;
    void onMessage(LogLevel level, const std::string& text) override;
    void onRunFinished(const RunSummary& summary) override;

private:
    void clearLine();
    std::ostream& out_;
    bool interactive_;
    int epochs_ = 1;
    int64_t steps_per_epoch_ = 0;
    int64_t total_steps_ = 0;
    int64_t done_steps_ = 0;
    double smoothed_ips_ = 0;
    std::chrono::steady_clock::time_point last_draw_{};
};

} // namespace ts
