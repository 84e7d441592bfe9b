#pragma once
// Starts and stops runs and turns the worker's buffer into typed signals: the
// run is a BackgroundJob whose ~30 Hz drain takes the LiveBuffer and emits at
// most ONE update per tick, so views replot once per tick however fast the
// steps come.
#include <filesystem>
#include <functional>
#include <memory>

#include <QObject>
#include <QString>

#include "config/ExperimentConfig.h"
#include "jobs/BackgroundJob.h"
#include "scriptrun/ScriptLaunch.h"
#include "training/LiveBuffer.h"
#include "training/LiveUpdate.h"
#include "training/ProgressEstimator.h"

namespace ts::scriptrun {
class ScriptControl;
} // namespace ts::scriptrun

namespace ts::gui {

class TrainingWork;

class RunController : public QObject {
    Q_OBJECT
public:
    static constexpr int kTickMs = BackgroundJob::kTickMs;
    static constexpr int kMaxProcesses = 64; // local ranks of a job started here

    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    // Where new run directories are created.
    void setRunsRoot(const QString& dir) { runs_root_ = dir; }
    QString runsRoot() const { return runs_root_; }
    void setWriteCheckpoints(bool enabled) { checkpoints_ = enabled; }
    // The trainscope-cli that runs jobs of several processes (default: the
    // one beside this program).
    void setCliPath(const QString& path) { cli_path_ = path; }
    QString cliPath() const { return cli_path_; }
    bool isRunning() const { return worker_ != nullptr; }
    QString currentRunDir() const { return current_dir_; }

public slots:
    // Validates, creates the run directory and starts the worker: training in
    // this process, or with `processes` > 1 a data-parallel job of that many
    // local ranks (trainscope-cli run --nproc-per-node). A config that fails
    // validation emits startFailed and starts nothing.
    void start(const ts::ExperimentConfig& config, int processes = 1);
    // The user's own Python script under the probe, in a new run directory
    // named after it. Needs no LibTorch here (the script brings its own):
    // it starts before the TorchBackend has loaded, or without it. Options
    // that checkScriptOptions refuses emit startFailed; an interpreter
    // without torch ends as a failed run that says so.
    void startScript(const ts::scriptrun::ScriptRunOptions& options);
    // While a script runs: its probe traces the next `steps` steps, or takes
    // a CUDA memory snapshot, at its next step. Otherwise nothing.
    void traceNextSteps(int steps);
    void memorySnapshot();
    // The run stops within one step; what was measured is kept on disk.
    void stop();

signals:
    void runStarted(const ts::gui::RunLaunch& launch);
    void updated(const ts::gui::LiveUpdate& update);
    void progressChanged(const ts::gui::RunProgress& progress);
    void runFinished(const ts::gui::RunOutcome& outcome);
    void startFailed(const QString& message);
    void stopRequested();

private:
    void tick();
    void onWorkerFinished();
    void discardEmptyRunDir();
    // Makes a run directory under the runs folder; empty (and startFailed) when it cannot.
    std::filesystem::path makeDir(const std::function<std::filesystem::path()>& make);
    void launch(std::unique_ptr<TrainingWork> worker, const RunLaunch& launch);

    QString runs_root_;
    bool checkpoints_ = true;
    QString current_dir_;
    LiveBuffer buffer_;
    ProgressEstimator progress_;
    QString cli_path_;
    std::unique_ptr<TrainingWork> worker_;
    scriptrun::ScriptControl* script_control_ = nullptr; // the running script's
    BackgroundJob job_; // last: stopped and joined before what the worker uses is destroyed
};

} // namespace ts::gui
