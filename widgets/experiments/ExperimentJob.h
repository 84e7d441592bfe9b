#pragma once
// Runs one sweep or optimization ladder on a worker thread through core's
// runSweep / runLadder with a TrainerPointRunner, writing the report files
// after every point exactly as trainscope-cli does. Each finished point or
// rung reaches the GUI thread as a queued call that emits the result so far;
// stop() cancels through the runner (the rest is recorded as not run).
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <QObject>
#include <QString>

#include "experiments/ExperimentRequest.h"
#include "experiments/Ladder.h"
#include "experiments/Sweep.h"

namespace ts {
class TrainerPointRunner;
} // namespace ts

namespace ts::gui {

struct ExperimentOutcome {
    ExperimentMode mode = ExperimentMode::Sweep;
    QString dir;   // where the points and the report went
    QString error; // the experiment could not run at all
    bool cancelled = false;
    int completed = 0; // points / rungs measured successfully
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
    // Thread-safe through the runner; the point that runs stops within one step.
    void stop();
    bool isRunning() const { return running_; }
    bool stopRequested() const { return stop_requested_; }
    ExperimentMode mode() const { return mode_; }
    QString outputDir() const { return dir_; }
    // Points of the sweep (rungs of the ladder, skipped ones included) in run order.
    int plannedCount() const { return int(labels_.size()); }
    QString plannedLabel(int index) const;
    // Steps the running point has completed (any thread writes, the GUI reads).
    int64_t currentStep() const { return step_.load(); }
    int64_t stepsPerPoint() const { return steps_per_point_; }

signals:
    void sweepProgress(const ts::SweepResult& soFar);
    void ladderProgress(const ts::LadderResult& soFar);
    void finished(const ts::gui::ExperimentOutcome& outcome);
    void stopping();

private:
    class StepCounter;
    void runSweepThread(SweepSpec spec);
    void runLadderThread(LadderSpec spec);
    void post(ExperimentOutcome outcome);

    ExperimentMode mode_ = ExperimentMode::Sweep;
    QString dir_;
    std::vector<QString> labels_;
    int64_t steps_per_point_ = 0;
    bool running_ = false;
    bool stop_requested_ = false;
    std::atomic<int64_t> step_{0};
    std::unique_ptr<StepCounter> counter_;
    std::unique_ptr<TrainerPointRunner> runner_;
    std::thread thread_;
};

} // namespace ts::gui

Q_DECLARE_METATYPE(ts::gui::ExperimentOutcome)
Q_DECLARE_METATYPE(ts::SweepResult)
Q_DECLARE_METATYPE(ts::LadderResult)
