#pragma once
// The Experiments tab in Ladder mode: the rungs as a sortable table, images/s
// per rung with the kept ones highlighted, and the running rung's steps live.
// A running ladder arrives rung by rung (addRung); an opened one whole.
#include <QString>
#include <QWidget>

#include "experiments/ExperimentJob.h"
#include "experiments/Ladder.h"
#include "training/LiveUpdate.h"

class QModelIndex;
class QTableView;

namespace ts::gui {

class LadderChart;
class LadderTableModel;
class PointLiveChart;
class SortFilterProxy;

class LadderPanel : public QWidget {
    Q_OBJECT
public:
    explicit LadderPanel(QWidget* parent = nullptr);

    LadderTableModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    LadderChart* chart() const { return chart_; }
    PointLiveChart* liveChart() const { return live_; }
    const LadderResult& result() const { return result_; }
    QString directory() const { return dir_; }

    // A ladder about to run into `dir`: no rungs yet, the live chart shown.
    void begin(const LadderSpec& spec, const QString& dir);
    // A rung of the running ladder finished.
    void addRung(const LadderRungUpdate& rung);
    // The running rung's steps since the previous tick.
    void appendLive(const LiveUpdate& update);
    // A whole ladder (opened from disk): no live chart.
    void showResult(const LadderResult& result, const QString& dir);
    // The line above the table (rich text).
    QString title() const;
    bool exportPng(const QString& path, QString* error);

signals:
    // A row was double-clicked: its rung's run directory.
    void openRunRequested(const QString& runDir);

private:
    void showRunning();
    void refresh();
    void openRow(const QModelIndex& index);

    LadderResult result_; // what is shown
    QString dir_;
    // The running experiment, kept apart so that opening another directory
    // while it runs loses nothing: its next row shows it again.
    LadderResult running_;
    QString running_dir_;
    bool shows_running_ = false;
    LadderTableModel* model_;
    SortFilterProxy* proxy_;
    QTableView* table_;
    LadderChart* chart_;
    PointLiveChart* live_;
};

} // namespace ts::gui
