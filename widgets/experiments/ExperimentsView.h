#pragma once
// The Experiments tab: runs a sweep or the optimization ladder on the
// experiment in the form (ExperimentJob, a worker thread through core), or a
// pruning study of trained weights (PruneJob), or opens one written earlier
// (by the GUI or trainscope-cli), and shows it as a sortable table and charts
// (images/s and memory against the swept value; images/s per rung with kept
// rungs highlighted; sparsity per pruned layer).
#include <QTimer>
#include <QWidget>

#include "experiments/ExperimentJob.h"
#include "experiments/Ladder.h"
#include "experiments/PruneJob.h"
#include "experiments/Sweep.h"

class QLabel;
class QStackedWidget;
class QTableView;

namespace ts::gui {

class AppSettings;
class ExperimentControls;
class ExperimentForm;
class LadderChart;
class LadderTableModel;
class PruneChart;
class PruneLayerTableModel;
class RunController;
class SortFilterProxy;
class SweepCharts;
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
    SweepTableModel* sweepModel() const { return sweep_model_; }
    LadderTableModel* ladderModel() const { return ladder_model_; }
    PruneLayerTableModel* pruneModel() const { return prune_model_; }
    QTableView* table() const { return table_; }
    SweepCharts* sweepCharts() const { return sweep_charts_; }
    LadderChart* ladderChart() const { return ladder_chart_; }
    PruneChart* pruneChart() const { return prune_chart_; }
    bool isRunning() const;
    bool showsLadder() const { return showing_ == ExperimentMode::Ladder; }
    bool showsPrune() const { return showing_ == ExperimentMode::Prune; }
    // The line above the table: what is shown and, for a pruning study, its summary.
    QString summaryText() const;
    QString shownDirectory() const { return shown_dir_; }

    // Starts the controls' request on the form's experiment; false with the
    // reason (also shown in the status line) when it cannot start.
    bool start(QString* error = nullptr);
    void stop();
    // Shows a sweep, ladder or prune directory (sweep.csv / ladder.csv / prune.json).
    bool openDirectory(const QString& dir, QString* error = nullptr);
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
    void onFinished(const ExperimentOutcome& outcome);
    void onPruneFinished(const PruneOutcome& outcome);
    void updateStartBlocked();
    void updateProgress();
    void showMode(ExperimentMode mode);
    void openInteractive();
    void exportInteractive();
    void openRowRunDir(const QModelIndex& index);

    AppSettings& settings_;
    const ExperimentForm& form_;
    RunController& runs_;
    ExperimentJob* job_;
    PruneJob* prune_job_;
    ExperimentControls* controls_;
    SweepTableModel* sweep_model_;
    LadderTableModel* ladder_model_;
    PruneLayerTableModel* prune_model_;
    SortFilterProxy* proxy_;
    QTableView* table_;
    QStackedWidget* charts_;
    SweepCharts* sweep_charts_;
    LadderChart* ladder_chart_;
    PruneChart* prune_chart_;
    QLabel* title_;
    QTimer progress_timer_;
    ExperimentMode showing_ = ExperimentMode::Sweep;
    QString shown_dir_;
    int rows_done_ = 0;
};

} // namespace ts::gui
