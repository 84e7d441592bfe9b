#pragma once
// A user's own Python script as a BackgroundJob's work: scriptrun::runScript
// on the job's thread, its records, output and ranks' steps into the
// LiveBuffer, Stop as the script's interrupt (then a kill after the grace).
// A refusal before the script started (bad options, an interpreter without
// torch, no probe) ends as a Failed summary that says why.
#include <chrono>

#include "scriptrun/ScriptRun.h"
#include "training/LiveBuffer.h"
#include "training/TrainingWork.h"
#include "util/Cancel.h"

namespace ts::gui {

class ScriptWorker : public TrainingWork {
public:
    ScriptWorker(scriptrun::ScriptRunOptions options, LiveBuffer& live);

    void run() override;
    void requestStop() override { stop_.request(); }
    const RunSummary& summary() const override { return summary_; }
    // The buttons' requests (any thread), handed to the probe at its next step.
    scriptrun::ScriptControl& control() { return control_; }

private:
    void refused(const std::string& why);

    scriptrun::ScriptRunOptions options_;
    LiveBuffer& live_;
    CancelFlag stop_;
    scriptrun::ScriptControl control_;
    RunSummary summary_;
};

} // namespace ts::gui
