#include "gpu/KernelsView.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "common/CsvExport.h"
#include "common/DocumentSelection.h"
#include "common/ExportFile.h"
#include "common/SortFilterProxy.h"
#include "common/SpecTableModel.h"
#include "common/TableSetup.h"
#include "gpu/GpuTableModels.h"
#include "operators/TopOpsChart.h"
#include "report/GpuTables.h"
#include "report/TableDiff.h"

namespace ts::gui {

KernelsView::KernelsView(AppSettings* settings, QWidget* parent)
    : QWidget(parent), settings_(settings), by_name_(new SpecTableModel(this)),
      by_op_(new SpecTableModel(this)), proxy_(new SortFilterProxy(this)), table_(new QTableView),
      filter_(new QLineEdit),
      by_op_toggle_(new QCheckBox(tr("Group by kernel, operator and launch configuration"))),
      export_(new QPushButton(tr("Export CSV…"))), source_(new QLabel), message_(new QLabel),
      body_(new QWidget) {
    setObjectName(QStringLiteral("kernelsView"));
    proxy_->setSourceModel(by_name_);
    proxy_->setFilterKeyColumn(kernelColumn(kernel_column::kName));
    // Both tables start with the name; regroup() points the chart at the total.
    chart_ = new TopOpsChart(proxy_, kernelColumn(kernel_column::kName),
                             kernelColumn(kernel_column::kTotalUs));
    chart_->setTopN(10);
    filter_->setPlaceholderText(tr("Filter by kernel name"));
    filter_->setClearButtonEnabled(true);
    message_->setWordWrap(true);
    message_->setAlignment(Qt::AlignCenter);

    TableOptions options;
    options.sortColumn = kernelColumn(kernel_column::kTotalUs);
    options.sortOrder = Qt::DescendingOrder;
    setUpTable(table_, proxy_, nullptr, options);

    auto* bar = new QHBoxLayout;
    bar->addWidget(filter_, 2);
    bar->addWidget(by_op_toggle_);
    bar->addWidget(export_);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(table_);
    split->addWidget(chart_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400}); // the table scrolls; the chart needs room for its names
    auto* body = new QVBoxLayout(body_);
    body->setContentsMargins(0, 0, 0, 0);
    body->addLayout(bar);
    body->addWidget(split, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(source_);
    layout->addWidget(message_, 1);
    layout->addWidget(body_, 1);

    connect(filter_, &QLineEdit::textChanged, this, &KernelsView::setNameFilter);
    connect(by_op_toggle_, &QCheckBox::toggled, this, [this] { regroup(); });
    connect(export_, &QPushButton::clicked, this, &KernelsView::exportInteractive);
    connect(table_->horizontalHeader(), &QHeaderView::sortIndicatorChanged, chart_,
            [this](int column, Qt::SortOrder) { chart_->setColumn(column); });
    clear();
}

void KernelsView::clear() {
    setAnalysis(nullptr, QString());
}

void KernelsView::showPending(const QString& message) {
    setAnalysis(nullptr, QString());
    message_->setText(message);
}

void KernelsView::setAnalysis(std::shared_ptr<const GpuTraceAnalysis> analysis,
                              const QString& description, std::shared_ptr<const Trace> trace) {
    analysis_ = std::move(analysis);
    trace_ = std::move(trace);
    description_ = description;
    if (selection_) {
        window_ = windowOf(selection_->current());
        window_what_ = windowText(selection_->current());
    }
    const bool none = !analysis_ || analysis_->kernels.by_name.empty();
    message_->setText(
        !analysis_ ? tr("No trace yet: open a Kineto (torch.profiler) trace or a profiled run to "
                        "see its GPU kernels.")
        : analysis_->device_time_without_kernels
            ? tr("Trainscope's profiler timed this run's operators on the GPU but records no "
                 "kernels: the Operators tab has each operator's CUDA time; a torch.profiler "
                 "trace (ProfilerActivity.CUDA) has the kernels.")
            : tr("This trace has no GPU kernels (a CPU-only run, or a trace without Kineto's "
                 "kernel events)."));
    message_->setVisible(none);
    body_->setVisible(!none);
    fillTables();
}

void KernelsView::followSelection(DocumentSelection* selection) {
    selection_ = selection;
    selection->followWindow(
        this, [this](const TimeWindow& window, const QString& what) { setWindow(window, what); });
}

void KernelsView::setWindow(const TimeWindow& window, const QString& what) {
    window_ = window;
    window_what_ = what;
    fillTables();
}

void KernelsView::setBaseline(std::shared_ptr<const GpuTraceAnalysis> baseline,
                              const QString& title) {
    baseline_ = std::move(baseline);
    baseline_title_ = title;
}

namespace {

// The change of the total, the column a comparison is ordered by.
const std::string kCompareKey = std::string(kernel_column::kTotalUs) + "_delta";

} // namespace

// The analysis' tables, or those of the kernels in the window; against a
// baseline, each B − A.
void KernelsView::fillTables() {
    const bool narrowed = !window_.all() && analysis_ && trace_;
    const QString source = narrowed
                               ? tr("%1\nThe kernels that start in %2 (the document's selection).")
                                     .arg(description_, window_what_)
                               : description_;
    source_->setText(source);
    source_->setVisible(!source.isEmpty());
    static const KernelTables no_kernels;
    const KernelTables tables =
        narrowed    ? computeKernelTables(*trace_, analysis_->events, analysis_->links,
                                          analysis_->tree, false, window_)
        : analysis_ ? analysis_->kernels
                    : no_kernels;
    table::TableSpec by_name = kernelTableSpec(tables, false);
    table::TableSpec by_op = kernelTableSpec(tables, true);
    if (baseline_ && analysis_) {
        table::TableDiffOptions options;
        options.label_a = baseline_title_.toStdString();
        options.label_b = "this";
        options.order_key = kernel_column::kTotalUs;
        by_name = table::diffTables(kernelTableSpec(baseline_->kernels, false), by_name, options);
        by_op = table::diffTables(kernelTableSpec(baseline_->kernels, true), by_op, options);
        source_->setText(
            source +
            tr("\nCompared with %1: Δ is this trace's value minus its.").arg(baseline_title_));
    }
    const bool compared_before = by_name_->spec().columnIndex(kCompareKey) >= 0;
    by_name_->setSpec(by_name);
    by_op_->setSpec(by_op);
    // Compared or not, the columns moved: the table and chart follow the total (its change).
    regroup(compared_before != (baseline_ && analysis_));
}

QString KernelsView::messageText() const {
    return message_->isVisibleTo(this) ? message_->text() : QString();
}

void KernelsView::setGroupByOperator(bool byOperator) {
    by_op_toggle_->setChecked(byOperator);
}

void KernelsView::setNameFilter(const QString& text) {
    if (filter_->text() != text) filter_->setText(text);
    proxy_->setTextFilter(kernelColumn(kernel_column::kName), text);
}

void KernelsView::regroup(bool columns_moved) {
    SpecTableModel* wanted = by_op_toggle_->isChecked() ? by_op_ : by_name_;
    if (proxy_->sourceModel() != wanted || columns_moved) {
        proxy_->setSourceModel(wanted);
        // The groupings order their columns as the plugin does: the total
        // (against a baseline, its change) moves, and the table and chart follow it.
        const int total = wanted->spec().columnIndex(kCompareKey);
        table_->sortByColumn(total >= 0 ? total
                                        : wanted->spec().columnIndex(kernel_column::kTotalUs),
                             Qt::DescendingOrder);
    }
    table_->resizeColumnsToContents();
    table_->setColumnWidth(kernelColumn(kernel_column::kName),
                           qMin(table_->columnWidth(kernelColumn(kernel_column::kName)), 360));
    chart_->rebuild();
}

bool KernelsView::exportCsv(const QString& path, QString* error) const {
    return writeTextFile(path, modelToCsv(*proxy_), error);
}

void KernelsView::exportInteractive() {
    if (!settings_) return;
    exportFileInteractive(this, *settings_, tr("Export kernels"),
                          by_op_toggle_->isChecked() ? QStringLiteral("kernels_by_operator.csv")
                                                     : QStringLiteral("kernels.csv"),
                          tr("CSV files (*.csv)"), [this](const QString& path, QString* error) {
                              return exportCsv(path, error);
                          });
}

} // namespace ts::gui
