#pragma once
// The hand-over point between the training thread and the GUI (PlotJuggler
// style): the trainer's observer calls append under a mutex, the GUI timer
// takes everything at once. Neither side ever waits on the other for long.
#include <mutex>
#include <string_view>
#include <utility>
#include <vector>

#include "records/TrainerObserver.h"
#include "training/LiveUpdate.h"

namespace ts::gui {

class LiveBuffer : public TrainerObserver {
public:
    void onRunStarted(const RunInfo& info) override;
    void onStep(const StepRecord& step) override;
    void onEpoch(const EpochRecord& epoch) override;
    void onProfile(const ProfileCapture& capture) override;
    void onMessage(LogLevel level, const std::string& text) override;
    void onRunFinished(const RunSummary& summary) override;
    // A data-parallel job's ranks' own steps (rank, step), from JobWorker.
    void onRankSteps(const std::vector<std::pair<int, StepRecord>>& steps);
    // A user's script's output, from ScriptWorker.
    void onConsole(std::string_view bytes);

    // Everything appended since the previous call (GUI thread).
    LiveUpdate take();
    void clear();

private:
    std::mutex mutex_;
    LiveUpdate pending_;
};

} // namespace ts::gui
