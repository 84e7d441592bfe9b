#pragma once
// Drives the window from the command line for documentation and tests:
// open paths, run the experiment, pick a tab, save a screenshot, quit.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include "shell/LaunchOptions.h"
#include "shell/OpenedDocument.h"

namespace ts::gui {

class MainWindow;
struct RunOutcome;

class Automation : public QObject {
    Q_OBJECT
public:
    // How long charts get to finish queued replots before the screenshot.
    static constexpr int kSettleMs = 400;

    Automation(MainWindow& window, LaunchOptions options, QObject* parent = nullptr);
    // Starts the sequence (call once the window is shown).
    void begin();
    int exitCode() const { return exit_code_; }

signals:
    void finished(int exitCode);

private:
    void afterOpen(const OpenedDocument& document);
    void afterRun(const RunOutcome& outcome);
    void startRunOrFinish();
    // --live-jobs: waits a poll interval for the jobs to poll, or with
    // --trace-steps traces the first job that polled and waits for its trace
    // to open.
    void followLiveJobs();
    bool traceFirstJob();
    void finishWhenSettled();
    void finish();
    void fail(const QString& message);
    // Picks ProfilerStep#`step` of the shown trace for every view; false when it has none.
    bool pickStep(qint64 step);
    // Sets the open document of `path` as the one the tables compare with.
    bool compareWith(const QString& path);

    MainWindow& window_;
    LaunchOptions options_;
    QTimer settle_;
    int exit_code_ = 0;
    int waiting_opens_ = 0; // documents asked for and not yet shown
    bool waiting_run_ = false;
    QElapsedTimer live_clock_; // since the Live jobs panel was shown
    int live_ticket_ = 0;      // the trace --trace-steps asked
};

} // namespace ts::gui
