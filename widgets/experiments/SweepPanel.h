#pragma once
// The Experiments tab in Sweep mode: the points as a sortable table, images/s
// and memory against the swept value, and the running point's steps live.
// A running sweep arrives point by point (addRow); an opened one whole.
#include <QString>
#include <QWidget>

#include "experiments/Sweep.h"
#include "training/LiveUpdate.h"

class QModelIndex;
class QTableView;

namespace ts::gui {

class PointLiveChart;
class SortFilterProxy;
class SweepCharts;
class SweepTableModel;

class SweepPanel : public QWidget {
    Q_OBJECT
public:
    explicit SweepPanel(QWidget* parent = nullptr);

    SweepTableModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    SweepCharts* charts() const { return charts_; }
    PointLiveChart* liveChart() const { return live_; }
    const SweepResult& result() const { return result_; }
    QString directory() const { return dir_; }

    // A sweep about to run into `dir`: no rows yet, the live chart shown.
    void begin(const SweepSpec& spec, const QString& dir);
    // A point of the running sweep finished.
    void addRow(const SweepRow& row);
    // The running point's steps since the previous tick.
    void appendLive(const LiveUpdate& update);
    // A whole sweep (opened from disk): no live chart.
    void showResult(const SweepResult& result, const QString& dir);
    // The line above the table (rich text).
    QString title() const;
    bool exportPng(const QString& path, QString* error);

signals:
    // A row was double-clicked: its point's run directory.
    void openRunRequested(const QString& runDir);

private:
    void showRunning();
    void refresh();
    void openRow(const QModelIndex& index);

    SweepResult result_; // what is shown
    QString dir_;
    // The running experiment, kept apart so that opening another directory
    // while it runs loses nothing: its next row shows it again.
    SweepResult running_;
    QString running_dir_;
    bool shows_running_ = false;
    SweepTableModel* model_;
    SortFilterProxy* proxy_;
    QTableView* table_;
    SweepCharts* charts_;
    PointLiveChart* live_;
};

} // namespace ts::gui
