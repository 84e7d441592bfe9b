#pragma once
// Runs one pruning study on a worker thread through core's runPruneStudy and
// writes its report (writePruneReport) exactly as trainscope-cli prune does.
// The result reaches the GUI thread as a queued call that emits finished().
// A study is a short evaluation: it cannot be stopped, the destructor waits.
#include <thread>

#include <QObject>
#include <QString>

#include "experiments/ExperimentRequest.h"
#include "experiments/PruneStudy.h"

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
    bool isRunning() const { return running_; }
    QString outputDir() const { return dir_; }

signals:
    void finished(const ts::gui::PruneOutcome& outcome);

private:
    void run(PruneStudyOptions options);

    QString dir_;
    bool running_ = false;
    std::thread thread_;
};

} // namespace ts::gui

Q_DECLARE_METATYPE(ts::gui::PruneOutcome)
