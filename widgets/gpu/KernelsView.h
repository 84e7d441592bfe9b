#pragma once
// The Kernels tab: the GPU kernels of a Kineto trace grouped by name, or by
// name, operator and launch configuration (grid, block, registers, shared
// memory), sortable and filterable, the top 10 by total time beside them,
// and a CSV export of what the table shows.
#include <memory>

#include <QWidget>

#include "analysis/GpuTraceAnalysis.h"
#include "analysis/TimeWindow.h"
#include "common/SpecTableModel.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace ts::gui {

class AppSettings;
class DocumentSelection;
class SortFilterProxy;
class TopOpsChart;

class KernelsView : public QWidget {
    Q_OBJECT
public:
    // `settings` (may be null in tests) remembers the export folder.
    explicit KernelsView(AppSettings* settings = nullptr, QWidget* parent = nullptr);

    // `trace`: the analysis' trace, for the kernels of a step or range picked.
    void setAnalysis(std::shared_ptr<const GpuTraceAnalysis> analysis, const QString& description,
                     std::shared_ptr<const Trace> trace = nullptr);
    void clear();
    // Empty, with `message` where the table goes: the trace is still being
    // analysed for this tab (shell/DocumentPages).
    void showPending(const QString& message);

    // kernelTableSpec (report/GpuTables.h): the CLI's columns, by name and by operator.
    SpecTableModel* byNameModel() const { return by_name_; }
    SpecTableModel* byOpModel() const { return by_op_; }
    SortFilterProxy* proxy() const { return proxy_; }
    QTableView* table() const { return table_; }
    TopOpsChart* chart() const { return chart_; }
    QString messageText() const;
    void setGroupByOperator(bool byOperator);
    void setNameFilter(const QString& text);
    // Writes the table as shown (filtered, sorted) as CSV.
    bool exportCsv(const QString& path, QString* error) const;
    // The kernels of the step or time range picked for the document, or all.
    void followSelection(DocumentSelection* selection);
    void setWindow(const TimeWindow& window, const QString& what = {});
    // The kernels as B − A against `baseline`'s (another document's
    // analysis, null: none), shown from the next setAnalysis.
    void setBaseline(std::shared_ptr<const GpuTraceAnalysis> baseline, const QString& title);

private:
    // Shows the grouping chosen; sorts by the total again when it changed or
    // the `columns_moved` (a comparison begun or ended).
    void regroup(bool columns_moved = false);
    void fillTables();
    void exportInteractive();

    AppSettings* settings_;
    std::shared_ptr<const GpuTraceAnalysis> analysis_;
    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const GpuTraceAnalysis> baseline_;
    QString baseline_title_;
    DocumentSelection* selection_ = nullptr;
    TimeWindow window_;
    QString window_what_;
    QString description_;
    SpecTableModel* by_name_;
    SpecTableModel* by_op_;
    SortFilterProxy* proxy_;
    QTableView* table_;
    TopOpsChart* chart_;
    QLineEdit* filter_;
    QCheckBox* by_op_toggle_;
    QPushButton* export_;
    QLabel* source_;
    QLabel* message_;
    QWidget* body_;
};

} // namespace ts::gui
