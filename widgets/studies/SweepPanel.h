#pragma once
// The Experiments tab in Sweep mode: the points as a sortable table, images/s
// and memory against the swept value, and the running point's steps live.
// A running sweep arrives point by point (addRow); an opened one whole.
#include "experiments/Sweep.h"
#include "studies/ExperimentModels.h"
#include "studies/StudyPanel.h"

namespace ts::gui {

class SweepCharts;

class SweepPanel : public StudyPanel<SweepResult, SweepTableModel> {
    Q_OBJECT
public:
    explicit SweepPanel(QWidget* parent = nullptr);

    SweepCharts* charts() const;

    // A sweep about to run into `dir`: no rows yet, the live chart shown.
    void begin(const SweepSpec& spec, const QString& dir) { beginRunning(spec, dir); }
    // A point of the running sweep finished.
    void addRow(const SweepRow& row);
    // The line above the table (rich text).
    QString title() const;
    bool exportPng(const QString& path, QString* error);

private:
    void showCharts(const SweepResult& result) override;
};

} // namespace ts::gui
