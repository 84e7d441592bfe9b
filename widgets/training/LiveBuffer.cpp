#include "training/LiveBuffer.h"

#include <utility>

namespace ts::gui {

void LiveBuffer::onRunStarted(const RunInfo& info) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.started = info;
}

void LiveBuffer::onStep(const StepRecord& step) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.steps.push_back(step);
}

void LiveBuffer::onEpoch(const EpochRecord& epoch) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.epochs.push_back(epoch);
}

void LiveBuffer::onProfile(const ProfileCapture& capture) {
    // Copy outside the lock: a trace can be large.
    auto copy = std::make_shared<const ProfileCapture>(capture);
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.profiles.push_back(std::move(copy));
}

void LiveBuffer::onMessage(LogLevel level, const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.messages.push_back({level, text});
}

void LiveBuffer::onRunFinished(const RunSummary& summary) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.finished = summary;
}

void LiveBuffer::onRankSteps(const std::vector<std::pair<int, StepRecord>>& steps) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.rank_steps.insert(pending_.rank_steps.end(), steps.begin(), steps.end());
}

void LiveBuffer::onConsole(std::string_view bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.console.append(bytes);
}

LiveUpdate LiveBuffer::take() {
    LiveUpdate taken;
    std::lock_guard<std::mutex> lock(mutex_);
    std::swap(taken, pending_);
    return taken;
}

void LiveBuffer::clear() {
    take();
}

} // namespace ts::gui
