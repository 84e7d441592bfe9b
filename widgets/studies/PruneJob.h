#pragma once
// Runs one pruning study as a BackgroundJob through core's runPruneStudy and
// writes its report (writePruneReport) exactly as trainscope-cli prune does;
// finished() brings the result to the owner's thread. A study is a short
// evaluation that reports nothing on the way: there is nothing to drain, and
// it cannot be stopped (the destructor waits).
#include <QObject>
#include <QString>

#include "experiments/PruneStudy.h"
#include "jobs/BackgroundJob.h"
#include "studies/ExperimentRequest.h"

namespace ts::gui {

struct PruneOutcome {
    QString dir;   // where pruned.pt and the report went
    QString error; // the study failed (bad weights file, model mismatch, …)
    PruneStudyResult result;
};

class PruneJob : public QObject {
    Q_OBJECT
public:
    explicit PruneJob(QObject* parent = nullptr);
    ~PruneJob() override; // waits for the thread

    // Checks the request against `base` (ConfigError text in *error), creates
    // runsRoot/<date>-<name>-pruned and starts the thread.
    bool start(const ExperimentRequest& request, const ExperimentConfig& base,
               const QString& runsRoot, QString* error);
    bool isRunning() const { return job_.isRunning(); }
    QString outputDir() const { return dir_; }

signals:
    void finished(const ts::gui::PruneOutcome& outcome);

private:
    void run(const PruneStudyOptions& options);

    QString dir_;
    PruneOutcome outcome_; // written by the worker, read after it was joined
    BackgroundJob job_;    // last: joined before what the worker uses is destroyed
};

} // namespace ts::gui

Q_DECLARE_METATYPE(ts::gui::PruneOutcome)
