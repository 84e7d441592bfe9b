#pragma once
// The run list (all runs found) and the comparison table (the selected runs).
#include "common/TableModel.h"
#include "runs/RunRow.h"

namespace ts::gui {

class RunListModel : public TableModel<RunRow> {
public:
    enum Column {
        Name,
        Status,
        Modified,
        Model,
        Dataset,
        Device,
        Precision,
        Batch,
        Epochs,
        Steps,
        ImagesPerSec,
        EpochTime,
        PeakRss,
        ValAccuracy,
        Trace,
        Directory
    };
    explicit RunListModel(QObject* parent = nullptr);

protected:
    QVariant toolTip(const RunRow& row, int column) const override;
};

class RunComparisonModel : public TableModel<RunRow> {
public:
    enum Column {
        Name,
        ImagesPerSec,
        StepTime,
        EpochTime,
        TotalTime,
        PeakRss,
        PeakTensors,
        PeakDevice,
        TrainAccuracy,
        ValAccuracy,
        Model,
        Device,
        Precision,
        Batch,
        Threads
    };
    explicit RunComparisonModel(QObject* parent = nullptr);
};

} // namespace ts::gui
