#pragma once
// Horizontal bars of the first N rows of a (sorted, filtered) table: shows the
// column the table is sorted by, so the chart always answers the question the
// user is asking the table.
#include "charts/ThemedPlot.h"

class QAbstractItemModel;

namespace ts::gui {

class TopOpsChart : public ThemedPlot {
    Q_OBJECT
public:
    // `fallbackColumn` is charted while the table is sorted by a text column.
    TopOpsChart(QAbstractItemModel* model, int nameColumn, int fallbackColumn,
                QWidget* parent = nullptr);

    void setTopN(int n);
    // The Operators tab swaps tables (Trainscope's, Kineto's): each has its own default.
    void setFallbackColumn(int column) { fallback_column_ = column; }
    int topN() const { return top_n_; }
    int chartedColumn() const { return column_; }
    int barCount() const;

public slots:
    void setColumn(int column);
    void rebuild();

protected:
    void applyExtraTheme(const QPalette& palette) override;

private:
    void fitValueLabels();
    QAbstractItemModel* model_;
    int name_column_;
    int fallback_column_;
    int column_;
    int top_n_ = 15;
    double max_value_ = 0;
    QCPBars* bars_;
    QList<QCPItemText*> labels_;
};

} // namespace ts::gui
