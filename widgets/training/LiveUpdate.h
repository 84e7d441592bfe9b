#pragma once
// Value types handed from the training thread to the GUI. One LiveUpdate holds
// everything that arrived since the previous GUI tick.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <QMetaType>
#include <QString>

#include "records/Records.h"
#include "trace/Trace.h"

namespace ts::gui {

struct LogLine {
    LogLevel level = LogLevel::Info;
    std::string text;
};

struct LiveUpdate {
    std::optional<RunInfo> started;
    std::vector<StepRecord> steps;
    std::vector<EpochRecord> epochs;
    std::vector<std::shared_ptr<const ProfileCapture>> profiles;
    std::vector<LogLine> messages;
    std::optional<RunSummary> finished;
    // A data-parallel job's ranks, each with its own steps: (rank, step).
    std::vector<std::pair<int, StepRecord>> rank_steps;
    // A user's script's output (stdout and stderr as they came), raw bytes.
    std::string console;

    bool empty() const {
        return !started && steps.empty() && epochs.empty() && profiles.empty() &&
               messages.empty() && !finished && rank_steps.empty() && console.empty();
    }
};

// Where a run started by the GUI writes, and what it runs.
struct RunLaunch {
    ExperimentConfig config;
    QString runDir;
    int processes = 1;   // > 1: a data-parallel job of local ranks
    bool script = false; // the user's own Python script (RunController::startScript)
};

// Progress through the run; eta_s < 0 while unknown.
struct RunProgress {
    int64_t done_steps = 0;
    int64_t total_steps = 0;
    int epoch = 0;
    int total_epochs = 0;
    double eta_s = -1;
    double images_per_sec = 0;
    double fraction() const { return total_steps > 0 ? double(done_steps) / total_steps : 0.0; }
};

struct RunOutcome {
    RunSummary summary;
    QString runDir; // empty when the run never started (e.g. invalid config)
};

} // namespace ts::gui

Q_DECLARE_METATYPE(ts::gui::LiveUpdate)
Q_DECLARE_METATYPE(ts::gui::RunLaunch)
Q_DECLARE_METATYPE(ts::gui::RunProgress)
Q_DECLARE_METATYPE(ts::gui::RunOutcome)
