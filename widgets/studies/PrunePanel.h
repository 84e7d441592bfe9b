#pragma once
// The Experiments tab in Prune mode: the pruned layers as a sortable table
// and the sparsity per layer before and after; the line above the table
// carries the study's summary (accuracy, latency, verdict).
#include <QString>
#include <QWidget>

#include "experiments/PruneStudy.h"

class QTableView;

namespace ts::gui {

class PruneChart;
class PruneLayerTableModel;
class SortFilterProxy;

class PrunePanel : public QWidget {
    Q_OBJECT
public:
    explicit PrunePanel(QWidget* parent = nullptr);

    PruneLayerTableModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    PruneChart* chart() const { return chart_; }
    QString directory() const { return dir_; }

    // A study (empty while it runs into `dir`).
    void showResult(const PruneStudyResult& result, const QString& dir);
    // The line above the table (rich text).
    QString title() const;
    bool exportPng(const QString& path, QString* error);

private:
    PruneStudyResult result_;
    QString dir_;
    PruneLayerTableModel* model_;
    SortFilterProxy* proxy_;
    QTableView* table_;
    PruneChart* chart_;
};

} // namespace ts::gui
