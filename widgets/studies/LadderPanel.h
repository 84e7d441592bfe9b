#pragma once
// The Experiments tab in Ladder mode: the rungs as a sortable table, images/s
// per rung with the kept ones highlighted, and the running rung's steps live.
// A running ladder arrives rung by rung (addRung); an opened one whole.
#include "experiments/Ladder.h"
#include "studies/ExperimentJob.h"
#include "studies/ExperimentModels.h"
#include "studies/StudyPanel.h"

namespace ts::gui {

class LadderChart;

class LadderPanel : public StudyPanel<LadderResult, LadderTableModel> {
    Q_OBJECT
public:
    explicit LadderPanel(QWidget* parent = nullptr);

    LadderChart* chart() const;

    // A ladder about to run into `dir`: no rungs yet, the live chart shown.
    void begin(const LadderSpec& spec, const QString& dir) { beginRunning(spec, dir); }
    // A rung of the running ladder finished.
    void addRung(const LadderRungUpdate& rung);
    // The line above the table (rich text).
    QString title() const;
    bool exportPng(const QString& path, QString* error);

private:
    void showCharts(const LadderResult& result) override;
};

} // namespace ts::gui
