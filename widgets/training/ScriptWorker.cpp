#include "training/ScriptWorker.h"

#include <exception>

#include "report/RunDirectory.h"

namespace ts::gui {
namespace {

// The summary the run ended with, as the recorder got it (medians, peaks).
class FinalSummary : public TrainerObserver {
public:
    void onRunFinished(const RunSummary& summary) override { summary_ = summary; }
    const RunSummary& summary() const { return summary_; }

private:
    RunSummary summary_;
};

} // namespace

ScriptWorker::ScriptWorker(scriptrun::ScriptRunOptions options, LiveBuffer& live)
    : options_(std::move(options)), live_(live) {}

void ScriptWorker::run() {
    FinalSummary final_summary;
    ObserverList observers;
    observers.add(&live_);
    observers.add(&final_summary);
    scriptrun::ScriptRunHooks hooks;
    hooks.observer = &observers;
    hooks.console = [this](scriptrun::ConsoleStream, std::string_view bytes) {
        live_.onConsole(bytes);
    };
    hooks.rank_step = [this](int rank, const StepRecord& step) {
        live_.onRankSteps({{rank, step}});
    };
    hooks.stop = &stop_;
    hooks.control = &control_;
    try {
        const scriptrun::ScriptRunResult result = scriptrun::runScript(options_, hooks);
        summary_ = final_summary.summary();
        summary_.status = result.status;
        summary_.error = result.error;
    } catch (const std::exception& error) {
        refused(error.what());
    }
}

void ScriptWorker::refused(const std::string& why) {
    summary_ = RunSummary();
    summary_.status = RunStatus::Failed;
    summary_.error = why;
    live_.onMessage(LogLevel::Error, why);
    live_.onRunFinished(summary_);
}

} // namespace ts::gui
