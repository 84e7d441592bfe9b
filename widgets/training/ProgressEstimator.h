#pragma once
// Progress and ETA of a run from the records seen so far. Pure maths, no Qt
// objects, so it is tested directly.
#include <deque>
#include <vector>

#include "records/Records.h"
#include "training/LiveUpdate.h"

namespace ts::gui {

class ProgressEstimator {
public:
    // Steps in the recent-rate window: long enough to smooth noise, short
    // enough to follow a change of pace (e.g. after warm-up).
    static constexpr int kWindow = 20;

    void start(const RunInfo& info);
    void add(const LiveUpdate& update);
    RunProgress progress() const;

private:
    int64_t total_steps_ = 0;
    int total_epochs_ = 0;
    int first_epoch_ = 0;
    int64_t done_steps_ = 0;
    int current_epoch_ = 0;
    double last_images_per_sec_ = 0;
    std::deque<double> recent_wall_s_; // wall clock of the latest steps
    double val_time_total_s_ = 0;
    int epochs_done_ = 0;
    bool validates_ = false;
};

} // namespace ts::gui
