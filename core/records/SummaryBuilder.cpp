#include "records/SummaryBuilder.h"

#include <algorithm>
#include <cmath>

#include "util/Statistics.h"

namespace ts {
namespace {

// Median of one field over the steps.
template <typename Get> double medianOver(const std::vector<StepRecord>& steps, Get get) {
    std::vector<double> v;
    v.reserve(steps.size());
    for (const auto& st : steps)
        v.push_back(get(st));
    return median(std::move(v));
}

} // namespace

void SummaryBuilder::addStep(const StepRecord& step) {
    all_.push_back(step);
    if (step.step >= warmup_) steady_.push_back(step);
    peaks_.steps_completed++;
    if (step.skipped) peaks_.skipped_steps++;
    peaks_.peak_tensor_bytes = std::max(peaks_.peak_tensor_bytes, step.tensor_peak_bytes);
    peaks_.peak_rss_bytes = std::max(peaks_.peak_rss_bytes, step.rss_bytes);
    peaks_.peak_device_bytes = std::max(peaks_.peak_device_bytes, step.device_peak_bytes);
    if (step.memory.total() > peaks_.peak_memory.total()) peaks_.peak_memory = step.memory;
    peaks_.final_train_loss = step.loss;
}

void SummaryBuilder::addEpoch(const EpochRecord& epoch) {
    epochs_.push_back(epoch);
}

RankSummary SummaryBuilder::rankFigures() const {
    const auto& steps = steady_.empty() ? all_ : steady_;
    auto column = [&](auto get) { return medianOver(steps, get); };
    RankSummary r;
    r.median_step_ms = column([](const StepRecord& s) { return s.step_ms; });
    r.median_images_per_sec = column([](const StepRecord& s) { return s.images_per_sec; });
    r.allreduce_ms_per_step = column([](const StepRecord& s) { return s.allreduce_ms; });
    r.comm_wait_ms_per_step = column([](const StepRecord& s) { return s.comm_wait_ms; });
    double in_flight = 0, waited = 0;
    for (const auto& st : steps) {
        in_flight += st.allreduce_ms;
        waited += std::min(st.comm_wait_ms, st.allreduce_ms);
    }
    r.overlap_pct = in_flight > 0 ? 100.0 * (in_flight - waited) / in_flight : 0;
    return r;
}

RunSummary SummaryBuilder::build(RunStatus status, const std::string& error,
                                 double total_time_s) const {
    RunSummary s = peaks_;
    s.status = status;
    s.error = error;
    s.total_time_s = total_time_s;
    s.epochs_completed = static_cast<int>(epochs_.size());
    const auto& steps = steady_.empty() ? all_ : steady_;
    auto column = [&](auto get) { return medianOver(steps, get); };
    s.median_images_per_sec = column([](const StepRecord& r) { return r.images_per_sec; });
    s.median_step_ms = column([](const StepRecord& r) { return r.step_ms; });
    s.median_phases.data_ms = column([](const StepRecord& r) { return r.phases.data_ms; });
    s.median_phases.copy_ms = column([](const StepRecord& r) { return r.phases.copy_ms; });
    s.median_phases.forward_ms = column([](const StepRecord& r) { return r.phases.forward_ms; });
    s.median_phases.backward_ms = column([](const StepRecord& r) { return r.phases.backward_ms; });
    s.median_phases.optimizer_ms =
        column([](const StepRecord& r) { return r.phases.optimizer_ms; });
    s.median_phases.other_ms = column([](const StepRecord& r) { return r.phases.other_ms; });
    if (!steps.empty() && steps.front().page_faults >= 0)
        s.median_page_faults = column([](const StepRecord& r) { return double(r.page_faults); });
    if (!epochs_.empty()) {
        double total = 0;
        for (const auto& e : epochs_) {
            total += e.epoch_time_s;
            if (e.has_val &&
                (std::isnan(s.best_val_accuracy) || e.val_accuracy > s.best_val_accuracy))
                s.best_val_accuracy = e.val_accuracy;
        }
        s.mean_epoch_time_s = total / double(epochs_.size());
        const auto& last = epochs_.back();
        s.final_train_loss = last.train_loss;
        s.final_train_accuracy = last.train_accuracy;
        for (auto it = epochs_.rbegin(); it != epochs_.rend(); ++it)
            if (it->has_val) {
                s.final_val_loss = it->val_loss;
                s.final_val_accuracy = it->val_accuracy;
                break;
            }
    }
    return s;
}

std::optional<double> jobImagesPerSec(const DistributedSummary& job) {
    if (job.ranks.size() != size_t(job.world_size)) return std::nullopt;
    double global = 0;
    for (const RankSummary& rank : job.ranks)
        global += rank.median_images_per_sec;
    return global;
}

} // namespace ts
