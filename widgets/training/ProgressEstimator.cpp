#include "training/ProgressEstimator.h"

#include <algorithm>

namespace ts::gui {

void ProgressEstimator::start(const RunInfo& info) {
    *this = ProgressEstimator();
    first_epoch_ = info.start_epoch;
    total_epochs_ = std::max(0, info.config.epochs - info.start_epoch);
    total_steps_ = int64_t(total_epochs_) * info.steps_per_epoch;
    current_epoch_ = info.start_epoch;
    validates_ = info.config.val_every > 0 && info.val_samples > 0;
}

void ProgressEstimator::add(const LiveUpdate& update) {
    if (update.started) start(*update.started);
    for (const StepRecord& step : update.steps) {
        ++done_steps_;
        current_epoch_ = step.epoch;
        last_images_per_sec_ = step.images_per_sec;
        recent_wall_s_.push_back(step.wall_s);
        if (int(recent_wall_s_.size()) > kWindow) recent_wall_s_.pop_front();
    }
    for (const EpochRecord& epoch : update.epochs) {
        ++epochs_done_;
        val_time_total_s_ += epoch.val_time_s;
    }
}

RunProgress ProgressEstimator::progress() const {
    RunProgress p;
    p.done_steps = std::min(done_steps_, total_steps_ > 0 ? total_steps_ : done_steps_);
    p.total_steps = total_steps_;
    p.epoch = current_epoch_ - first_epoch_;
    p.total_epochs = total_epochs_;
    p.images_per_sec = last_images_per_sec_;
    if (recent_wall_s_.size() < 2 || total_steps_ <= 0) return p;

    const double per_step_s =
        (recent_wall_s_.back() - recent_wall_s_.front()) / double(recent_wall_s_.size() - 1);
    const int64_t remaining_steps = std::max<int64_t>(0, total_steps_ - done_steps_);
    double eta = per_step_s * double(remaining_steps);
    // Validation passes still to come cost what the finished ones cost on average.
    if (validates_ && epochs_done_ > 0) {
        const int remaining_epochs = std::max(0, total_epochs_ - epochs_done_);
        eta += val_time_total_s_ / epochs_done_ * remaining_epochs;
    }
    p.eta_s = std::max(0.0, eta);
    return p;
}

} // namespace ts::gui
