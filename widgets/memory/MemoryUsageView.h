#pragma once
// The Memory tab (the TensorBoard plugin's Memory view, docs/gpu-traces.md):
// for the chosen device, its allocated/reserved curve with the peak marked,
// and below it the allocations and the per-operator statistics. Dragging
// across the chart narrows both tables to that time range; the curve always
// shows the whole trace. Works on Kineto "[memory]" events and on
// Trainscope's own memory samples.
#include <memory>
#include <optional>

#include <QWidget>

#include "analysis/GpuTraceAnalysis.h"
#include "analysis/MemoryView.h"
#include "common/ViewFrame.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTabWidget;
class QTableView;

namespace ts::gui {

class AppSettings;
class DocumentSelection;
class MemoryAllocationModel;
class MemoryCurveChart;
class MemoryOperatorModel;
class SortFilterProxy;

class MemoryUsageView : public QWidget {
    Q_OBJECT
public:
    enum Table { Operators = 0, Allocations = 1 };

    // `settings` (may be null in tests) remembers the export folder.
    explicit MemoryUsageView(AppSettings* settings = nullptr, QWidget* parent = nullptr);

    // `analysis` and `memory` are the trace's (its operator tree attributes the records); each
    // is computed here when null.
    void setTrace(std::shared_ptr<const Trace> trace,
                  std::shared_ptr<const GpuTraceAnalysis> analysis,
                  std::shared_ptr<const MemoryView> memory, const QString& description);
    void clear();
    // Empty, with `message` where the table goes: the trace is still being
    // analysed for this tab (shell/DocumentPages).
    void showPending(const QString& message);

    int deviceCount() const;
    QString currentDevice() const;
    // False when the trace has no records for `name` ("GPU0", "CPU").
    bool selectDevice(const QString& name);
    // Narrows the tables (nullopt: the whole trace) and shades the chart.
    void setRange(const std::optional<MemoryTimeRange>& range);
    // The range is the document's selection: one dragged here is picked for
    // every view, and one picked elsewhere (a step, the Timeline's area)
    // narrows this view.
    void followSelection(DocumentSelection* selection);
    const std::optional<MemoryTimeRange>& range() const { return range_; }
    void showTable(Table table);
    void setNameFilter(const QString& text);

    MemoryCurveChart* chart() const { return chart_; }
    MemoryAllocationModel* allocationModel() const { return allocations_; }
    MemoryOperatorModel* operatorModel() const { return operators_; }
    SortFilterProxy* allocationProxy() const { return allocation_proxy_; }
    SortFilterProxy* operatorProxy() const { return operator_proxy_; }
    QString messageText() const;
    QString rangeText() const;
    QString noteText() const;
    // Writes the table shown (filtered, sorted) as CSV.
    bool exportCsv(const QString& path, QString* error) const;

private:
    void showDevice();
    void fillTables();
    void exportInteractive();
    int deviceIndex() const;

    AppSettings* settings_;
    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const GpuTraceAnalysis> analysis_;
    std::shared_ptr<const MemoryView> view_; // whole trace, never null
    std::optional<MemoryTimeRange> range_;
    DocumentSelection* selection_ = nullptr;
    int64_t span_ns_ = 0; // the trace's end, the x axis of every device's curve
    MemoryCurveChart* chart_;
    MemoryAllocationModel* allocations_;
    MemoryOperatorModel* operators_;
    SortFilterProxy* allocation_proxy_;
    SortFilterProxy* operator_proxy_;
    QTableView* allocation_table_;
    QTableView* operator_table_;
    QTabWidget* tables_;
    QComboBox* device_;
    QLineEdit* filter_;
    QPushButton* whole_trace_;
    QPushButton* export_;
    QLabel* range_label_;
    QLabel* note_;
    ViewFrame frame_;
};

} // namespace ts::gui
