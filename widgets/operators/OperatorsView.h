#pragma once
// The Operators tab: the operator statistics of a trace in a sortable,
// filterable table (numbers sort numerically), grouped by name or by name and
// input shapes, forward / backward / all, with a top-N chart beside it.
#include <memory>

#include <QWidget>

#include "analysis/OpStats.h"
#include "trace/Trace.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableView;

namespace ts::gui {

class OpTableModel;
class SortFilterProxy;
class TopOpsChart;

class OperatorsView : public QWidget {
    Q_OBJECT
public:
    explicit OperatorsView(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace, const QString& description);
    void clear();

    OpTableModel* model() const { return model_; }
    SortFilterProxy* proxy() const { return proxy_; }
    QTableView* table() const { return table_; }
    TopOpsChart* chart() const { return chart_; }
    void setNameFilter(const QString& text);
    void setGroupByShape(bool byShape);
    void setScope(OpScope scope);

private:
    void recompute();
    void updateColumnVisibility();

    std::shared_ptr<const Trace> trace_;
    OpTableModel* model_;
    SortFilterProxy* proxy_;
    QTableView* table_;
    TopOpsChart* chart_;
    QLineEdit* filter_;
    QCheckBox* by_shape_;
    QComboBox* scope_;
    QSpinBox* top_n_;
    QLabel* source_;
};

} // namespace ts::gui
