#pragma once
// The Experiments tab: the controls, the line saying what is shown, and one
// panel per mode (SweepPanel, LadderPanel, PrunePanel) of which one shows.
// It starts the controls' request on the form's experiment (ExperimentJob for
// sweeps and ladders, PruneJob for pruning), feeds the running job's points
// and live steps to the panel, and opens directories written earlier (by the
// GUI or trainscope-cli).
#include <QWidget>

#include "experiments/Ladder.h"
#include "experiments/ReportReader.h"
#include "experiments/Sweep.h"
#include "studies/ExperimentJob.h"
#include "studies/PruneJob.h"

class QLabel;
class QStackedWidget;
class QTableView;

namespace ts::gui {

class AppSettings;
class ExperimentControls;
class ExperimentForm;
class LadderChart;
class LadderPanel;
class LadderTableModel;
class PruneChart;
class PruneLayerTableModel;
class PrunePanel;
class RunController;
class SweepCharts;
class SweepPanel;
class SweepTableModel;

class ExperimentsView : public QWidget {
    Q_OBJECT
public:
    // The form gives the base experiment, the controller the runs folder and
    // whether a single run is in progress (the two never run together).
    ExperimentsView(AppSettings& settings, const ExperimentForm& form, RunController& runs,
                    QWidget* parent = nullptr);

    ExperimentControls* controls() const { return controls_; }
    ExperimentJob* job() const { return job_; }
    PruneJob* pruneJob() const { return prune_job_; }
    SweepPanel* sweepPanel() const { return sweep_; }
    LadderPanel* ladderPanel() const { return ladder_; }
    PrunePanel* prunePanel() const { return prune_; }
    SweepTableModel* sweepModel() const;
    LadderTableModel* ladderModel() const;
    PruneLayerTableModel* pruneModel() const;
    // The table of the panel shown.
    QTableView* table() const;
    SweepCharts* sweepCharts() const;
    LadderChart* ladderChart() const;
    PruneChart* pruneChart() const;
    bool isRunning() const;
    bool showsLadder() const { return showing_ == ExperimentMode::Ladder; }
    bool showsPrune() const { return showing_ == ExperimentMode::Prune; }
    // The line above the table: what is shown and, for a pruning study, its summary.
    QString summaryText() const;
    QString shownDirectory() const;

    // Starts the controls' request on the form's experiment; false with the
    // reason (also shown in the status line) when it cannot start.
    bool start(QString* error = nullptr);
    void stop();
    // Shows a sweep, ladder or prune directory (sweep.csv / ladder.csv / prune.json).
    bool openDirectory(const QString& dir, QString* error = nullptr);
    // A study's directory read back (an experiment document).
    void showReport(const ExperimentReport& report, const QString& dir);
    void showSweep(const SweepResult& result, const QString& dir);
    void showLadder(const LadderResult& result, const QString& dir);
    void showPrune(const PruneStudyResult& result, const QString& dir);
    bool exportPng(const QString& path, QString* error = nullptr);

signals:
    void runningChanged(bool running);
    // A row was double-clicked: its point's run directory.
    void openRunRequested(const QString& runDir);
    void experimentFinished(const ts::gui::ExperimentOutcome& outcome);

private:
    void onSweepRow(const SweepRow& row);
    void onLadderRung(const LadderRungUpdate& rung);
    void onLiveUpdate(const LiveUpdate& update);
    void onFinished(const ExperimentOutcome& outcome);
    void onPruneFinished(const PruneOutcome& outcome);
    void updateStartBlocked();
    void updateProgress();
    void showMode(ExperimentMode mode);
    void updateTitle();
    void openInteractive();
    void exportInteractive();

    AppSettings& settings_;
    const ExperimentForm& form_;
    RunController& runs_;
    ExperimentJob* job_;
    PruneJob* prune_job_;
    ExperimentControls* controls_;
    SweepPanel* sweep_;
    LadderPanel* ladder_;
    PrunePanel* prune_;
    QStackedWidget* panels_; // in ExperimentMode order
    QLabel* title_;
    ExperimentMode showing_ = ExperimentMode::Sweep;
    int rows_done_ = 0;
};

} // namespace ts::gui
