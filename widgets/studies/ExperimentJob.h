#pragma once
// Runs one sweep or optimization ladder as a BackgroundJob through core's
// runSweep / runLadder with the TorchBackend's point runner, writing the report files
// after every point exactly as trainscope-cli does. Like a single run, the
// worker only appends: the running point's steps to a LiveBuffer (the
// runner's observer), each finished point or rung to a queue; the job's
// 30 Hz drain turns them into typed signals in the order they were produced.
// stop() cancels through the runner (the rest is recorded as not run).
#include <cstdint>
#include <memory>
#include <vector>

#include <QObject>
#include <QString>

#include "experiments/Ladder.h"
#include "experiments/Sweep.h"
#include "jobs/BackgroundJob.h"
#include "jobs/UpdateQueue.h"
#include "studies/ExperimentRequest.h"
#include "training/LiveBuffer.h"
#include "training/LiveUpdate.h"

namespace ts::gui {

class StoppablePointRunner;

struct ExperimentOutcome {
    ExperimentMode mode = ExperimentMode::Sweep;
    QString dir;   // where the points and the report went
    QString error; // the experiment could not run at all
    bool cancelled = false;
    int completed = 0; // points / rungs measured successfully
};

// One finished rung and the ladder's figures after it.
struct LadderRungUpdate {
    RungRow row;
    double baseline_images_per_sec = 0;
    double best_images_per_sec = 0;
};

class ExperimentJob : public QObject {
    Q_OBJECT
public:
    explicit ExperimentJob(QObject* parent = nullptr);
    ~ExperimentJob() override; // cancels and waits for the thread

    // Checks the request against `base` (ConfigError text in *error), creates
    // runsRoot/<date>-<name>-sweep (or -ladder) and starts the thread.
    bool start(const ExperimentRequest& request, const ExperimentConfig& base,
               const QString& runsRoot, QString* error);
    // The point that runs stops within one step.
    void stop();
    bool isRunning() const { return job_.isRunning(); }
    bool stopRequested() const { return job_.stopRequested(); }
    ExperimentMode mode() const { return mode_; }
    QString outputDir() const { return dir_; }
    // What the running (or last) experiment measures: the rows that arrive
    // through sweepProgress / ladderProgress belong to it.
    const SweepSpec& sweepSpec() const { return sweep_spec_; }
    const LadderSpec& ladderSpec() const { return ladder_spec_; }
    // Points of the sweep (rungs of the ladder, skipped ones included) in run order.
    int plannedCount() const { return int(labels_.size()); }
    QString plannedLabel(int index) const;
    // Steps the running point has completed, as of the last drain.
    int64_t currentStep() const { return current_step_; }
    int64_t stepsPerPoint() const { return steps_per_point_; }

signals:
    // The running point's records since the previous tick (at most one per
    // tick; when `started` is set, a new point began and the steps are its own).
    void liveUpdated(const ts::gui::LiveUpdate& update);
    // A point or rung finished (the new one only).
    void sweepProgress(const ts::SweepRow& row);
    void ladderProgress(const ts::gui::LadderRungUpdate& rung);
    void finished(const ts::gui::ExperimentOutcome& outcome);
    void stopping();

private:
    void runSweepWork();
    void runLadderWork();
    void drain();

    ExperimentMode mode_ = ExperimentMode::Sweep;
    QString dir_;
    SweepSpec sweep_spec_;
    LadderSpec ladder_spec_;
    std::vector<QString> labels_;
    int64_t steps_per_point_ = 0;
    int64_t current_step_ = 0;
    ExperimentOutcome outcome_;        // written by the worker, read after it was joined
    std::unique_ptr<LiveBuffer> live_; // the runner's observer
    UpdateQueue<SweepRow> sweep_rows_;
    UpdateQueue<LadderRungUpdate> rungs_;
    std::unique_ptr<StoppablePointRunner> runner_; // the TorchBackend's
    BackgroundJob job_; // last: stopped and joined before what the worker uses is destroyed
};

} // namespace ts::gui

Q_DECLARE_METATYPE(ts::gui::ExperimentOutcome)
Q_DECLARE_METATYPE(ts::gui::LadderRungUpdate)
Q_DECLARE_METATYPE(ts::SweepRow)
