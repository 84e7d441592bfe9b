#pragma once
// The Operators tab: the operator statistics of a trace in a sortable,
// filterable table (numbers sort numerically), with a top-N chart beside it.
// Trainscope's traces show OpStats grouped by name or by name and input
// shapes, forward / backward / all; torch.profiler (Kineto) traces show the
// TensorBoard plugin's Operator view (DeviceOpStats: host and device times,
// Tensor Cores) grouped by name, shapes or call stack, with the selected
// operator's call stacks below the table.
#include <memory>

#include <QWidget>

#include "analysis/OpStats.h"
#include "operators/DeviceOpData.h"
#include "trace/Trace.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QTableView;

namespace ts::gui {

class DeviceOpTableModel;
class DocumentSelection;
struct Selection;
class OpTableModel;
class SortFilterProxy;
class TopOpsChart;

class OperatorsView : public QWidget {
    Q_OBJECT
public:
    explicit OperatorsView(QWidget* parent = nullptr);

    // `analysis`: the document's GPU analysis of `trace`, if it has one (its
    // operator tree is reused instead of built again on the GUI thread).
    void setTrace(std::shared_ptr<const Trace> trace, const QString& description,
                  std::shared_ptr<const GpuTraceAnalysis> analysis = nullptr);
    void clear();
    // Empty, with `message` where the table goes: the trace is still being
    // analysed for this tab (shell/DocumentPages).
    void showPending(const QString& message);

    OpTableModel* model() const { return model_; }                    // Trainscope's traces
    DeviceOpTableModel* deviceModel() const { return device_model_; } // Kineto traces
    bool showsDeviceOps() const { return device_ != nullptr; }
    SortFilterProxy* proxy() const { return proxy_; }
    QTableView* table() const { return table_; }
    TopOpsChart* chart() const { return chart_; }
    QString callStackText() const;
    void setNameFilter(const QString& text);
    void setGroupByShape(bool byShape);
    void setScope(OpScope scope);
    // Kineto traces; false (and unchanged) when the trace has no such
    // grouping (no call stacks recorded).
    bool setDeviceGrouping(DeviceOpGrouping grouping);
    // The operators of the step or time range picked for the document (the
    // Timeline's Shift+drag, the Overview's step bars), or of all of it.
    void followSelection(DocumentSelection* selection);
    // The part of the trace the table holds (default: all of it).
    void setWindow(const TimeWindow& window, const QString& what = {});
    const TimeWindow& window() const { return window_; }

private:
    void buildLayout();
    void connectControls();
    void recompute();
    void regroupDeviceOps();
    void showTableFor(bool kineto);
    void fillGroupings();
    DeviceOpGrouping deviceGrouping() const;
    void sortBy(int column);
    void fitColumns();
    void updateColumnVisibility();
    void showCallStacks();

    void showWindowLabel();

    std::shared_ptr<const Trace> trace_;
    std::unique_ptr<const DeviceOpData> device_; // set for Kineto traces
    DocumentSelection* selection_ = nullptr;
    TimeWindow window_;
    QString window_what_; // "step 12 (3.200–4.100 ms)"
    QString description_;
    OpTableModel* model_;
    DeviceOpTableModel* device_model_;
    SortFilterProxy* proxy_;
    QTableView* table_;
    TopOpsChart* chart_;
    QLineEdit* filter_;
    QCheckBox* by_shape_;
    QComboBox* scope_;
    QComboBox* grouping_;
    QSpinBox* top_n_;
    QLabel* source_;
    QPlainTextEdit* stacks_;
};

} // namespace ts::gui
