#include "operators/OperatorsView.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "common/DocumentSelection.h"
#include "common/SortFilterProxy.h"
#include "common/TableSetup.h"
#include "operators/CallStackText.h"
#include "operators/DeviceOpTableModel.h"
#include "operators/OpTableModel.h"
#include "operators/TopOpsChart.h"
#include "report/GpuTables.h"
#include "report/OpTables.h"

namespace ts::gui {
namespace {

// Columns that would be empty for the trace are hidden: no device time on a
// CPU run, shapes or call stacks only when grouped by them.
bool hiddenOpColumn(const std::string& key, bool device, bool by_shape) {
    if (key == op_column::kSelfDevice || key == op_column::kDeviceTotal) return !device;
    if (key == op_column::kShapes) return !by_shape;
    return false;
}

bool hiddenDeviceOpColumn(const std::string& key, bool device, DeviceOpGrouping grouping) {
    namespace dc = device_op_column;
    if (key == dc::kShapes) return grouping != DeviceOpGrouping::NameAndShapes;
    if (key == dc::kCallStack) return grouping != DeviceOpGrouping::NameAndStack;
    if (key == dc::kDeviceSelfUs || key == dc::kDeviceTotalUs || key == dc::kTcSelfPct ||
        key == dc::kTcTotalPct)
        return !device;
    return false;
}

QPlainTextEdit* makeStackPane() {
    auto* pane = new QPlainTextEdit;
    pane->setObjectName(QStringLiteral("callStacks"));
    pane->setReadOnly(true);
    pane->setLineWrapMode(QPlainTextEdit::NoWrap);
    pane->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return pane;
}

} // namespace

OperatorsView::OperatorsView(QWidget* parent)
    : QWidget(parent), model_(new OpTableModel(this)), device_model_(new DeviceOpTableModel(this)),
      proxy_(new SortFilterProxy(this)), table_(new QTableView), filter_(new QLineEdit),
      by_shape_(new QCheckBox(tr("Group by input shape"))), scope_(new QComboBox),
      grouping_(new QComboBox), top_n_(new QSpinBox), source_(new QLabel),
      stacks_(makeStackPane()) {
    proxy_->setSourceModel(model_);
    proxy_->setFilterKeyColumn(0); // Name in both tables
    chart_ = new TopOpsChart(proxy_, 0, model_->column(op_column::kSelfCpu));

    filter_->setPlaceholderText(tr("Filter by name (Ctrl+F)"));
    filter_->setClearButtonEnabled(true);
    filter_->setObjectName(QStringLiteral("opFilter"));
    auto* find = new QShortcut(QKeySequence::Find, this);
    find->setContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QShortcut::activated, filter_, qOverload<>(&QWidget::setFocus));
    scope_->addItem(tr("Forward and backward"), int(OpScope::All));
    scope_->addItem(tr("Forward only"), int(OpScope::Forward));
    scope_->addItem(tr("Backward only"), int(OpScope::Backward));
    top_n_->setRange(3, 50);
    top_n_->setValue(chart_->topN());
    top_n_->setPrefix(tr("Top "));

    TableOptions table;
    table.sortColumn = model_->column(op_column::kSelfCpu);
    table.sortOrder = Qt::DescendingOrder;
    setUpTable(table_, proxy_, nullptr, table); // the proxy's source is set above
    buildLayout();
    connectControls();
    clear();
}

void OperatorsView::buildLayout() {
    auto* bar = new QHBoxLayout;
    bar->addWidget(filter_, 2);
    bar->addWidget(by_shape_);
    bar->addWidget(scope_);
    bar->addWidget(grouping_);
    bar->addWidget(top_n_);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(table_);
    split->addWidget(chart_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({650, 350});
    auto* below = new QSplitter(Qt::Vertical); // the call stacks under the table
    below->addWidget(split);
    below->addWidget(stacks_);
    below->setStretchFactor(0, 4);
    below->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(source_);
    layout->addWidget(below, 1);
}

void OperatorsView::connectControls() {
    connect(filter_, &QLineEdit::textChanged, this, &OperatorsView::setNameFilter);
    connect(by_shape_, &QCheckBox::toggled, this, &OperatorsView::recompute);
    connect(scope_, &QComboBox::currentIndexChanged, this, &OperatorsView::recompute);
    connect(grouping_, &QComboBox::currentIndexChanged, this, &OperatorsView::regroupDeviceOps);
    connect(top_n_, &QSpinBox::valueChanged, chart_, &TopOpsChart::setTopN);
    connect(table_->horizontalHeader(), &QHeaderView::sortIndicatorChanged, chart_,
            [this](int column, Qt::SortOrder) { chart_->setColumn(column); });
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &OperatorsView::showCallStacks);
}

void OperatorsView::clear() {
    trace_.reset();
    device_.reset();
    showTableFor(false);
    model_->clear();
    source_->setText(tr("No trace yet: run with profiling enabled, or open a run or a Chrome trace "
                        "(File ▸ Open, or drop it on the window)."));
    updateColumnVisibility();
}

void OperatorsView::showPending(const QString& message) {
    clear();
    source_->setText(message);
}

void OperatorsView::setTrace(std::shared_ptr<const Trace> trace, const QString& description,
                             std::shared_ptr<const GpuTraceAnalysis> analysis) {
    trace_ = std::move(trace);
    description_ = description;
    if (selection_) {
        window_ = windowOf(selection_->current());
        window_what_ = windowText(selection_->current());
    }
    showWindowLabel();
    device_ =
        trace_ && isKinetoTrace(*trace_) ? makeDeviceOpData(trace_, std::move(analysis)) : nullptr;
    showTableFor(device_ != nullptr);
    if (!device_) return recompute();
    fillGroupings();
    regroupDeviceOps();
    sortBy(device_model_->defaultSortColumn()); // each trace: device time if it has any
}

void OperatorsView::followSelection(DocumentSelection* selection) {
    selection_ = selection;
    selection->followWindow(
        this, [this](const TimeWindow& window, const QString& what) { setWindow(window, what); });
}

void OperatorsView::setWindow(const TimeWindow& window, const QString& what) {
    window_ = window;
    window_what_ = what;
    showWindowLabel();
    if (device_)
        regroupDeviceOps();
    else
        recompute();
}

void OperatorsView::showWindowLabel() {
    source_->setText(window_.all() || !trace_
                         ? description_
                         : tr("%1\nThe operators that start in %2 (the document's selection).")
                               .arg(description_, window_what_));
}

QString OperatorsView::callStackText() const {
    return stacks_->toPlainText();
}

void OperatorsView::setNameFilter(const QString& text) {
    if (filter_->text() != text) filter_->setText(text); // keeps the field in step (tests, API)
    proxy_->setTextFilter(0, text);                      // Name in both tables
}

void OperatorsView::setGroupByShape(bool byShape) {
    by_shape_->setChecked(byShape);
}

void OperatorsView::setScope(OpScope scope) {
    scope_->setCurrentIndex(scope_->findData(int(scope)));
}

bool OperatorsView::setDeviceGrouping(DeviceOpGrouping grouping) {
    const int index = grouping_->findData(int(grouping));
    if (index < 0) return false;
    grouping_->setCurrentIndex(index);
    return true;
}

// Both tables share the proxy, the view and the chart; the controls that do
// not apply to the table shown are hidden (the Kineto table has no
// forward / backward scope, Trainscope's no call stacks).
void OperatorsView::showTableFor(bool kineto) {
    QAbstractItemModel* wanted = kineto ? static_cast<QAbstractItemModel*>(device_model_) : model_;
    const bool switched = proxy_->sourceModel() != wanted;
    if (switched) proxy_->setSourceModel(wanted);
    by_shape_->setVisible(!kineto);
    scope_->setVisible(!kineto);
    grouping_->setVisible(kineto);
    stacks_->setVisible(kineto);
    if (kineto)
        model_->clear();
    else
        device_model_->clear();
    if (switched && !kineto) sortBy(model_->column(op_column::kSelfCpu)); // its default
    showCallStacks(); // empties the pane for Trainscope's table
}

// Call-stack grouping only when some operator recorded a stack; the choice
// made for the previous trace stays when this one offers it.
void OperatorsView::fillGroupings() {
    const QSignalBlocker block(grouping_);
    const QVariant previous = grouping_->currentData();
    grouping_->clear();
    grouping_->addItem(tr("Group by name"), int(DeviceOpGrouping::Name));
    grouping_->addItem(tr("Group by name and input shapes"), int(DeviceOpGrouping::NameAndShapes));
    if (device_->hasCallStacks())
        grouping_->addItem(tr("Group by name and call stack"), int(DeviceOpGrouping::NameAndStack));
    grouping_->setCurrentIndex(qMax(0, grouping_->findData(previous)));
}

DeviceOpGrouping OperatorsView::deviceGrouping() const {
    return grouping_->count() > 0 ? DeviceOpGrouping(grouping_->currentData().toInt())
                                  : DeviceOpGrouping::Name;
}

void OperatorsView::recompute() {
    if (!trace_ || device_) return;
    const OpGrouping grouping =
        by_shape_->isChecked() ? OpGrouping::NameAndShapes : OpGrouping::Name;
    const auto scope = OpScope(scope_->currentData().toInt());
    model_->setTable(computeOpStats(*trace_, grouping, scope, window_));
    updateColumnVisibility();
    fitColumns();
}

void OperatorsView::regroupDeviceOps() {
    if (!device_) return;
    device_model_->setTable(device_->table(deviceGrouping(), window_));
    updateColumnVisibility();
    fitColumns();
    showCallStacks();
}

// `column` descending; the chart charts it, and falls back to it while the
// user sorts by a text column.
void OperatorsView::sortBy(int column) {
    chart_->setFallbackColumn(column);
    table_->sortByColumn(column, Qt::DescendingOrder);
    chart_->setColumn(column); // the header does not signal an unchanged indicator
}

// Long names, shapes and call stacks get a bounded width (full text in the tooltip).
void OperatorsView::fitColumns() {
    table_->resizeColumnsToContents();
    table_->setColumnWidth(0, qMin(table_->columnWidth(0), 320)); // Name in both tables
    const int shapes = device_ ? device_model_->column(device_op_column::kShapes)
                               : model_->column(op_column::kShapes);
    table_->setColumnWidth(shapes, qMin(table_->columnWidth(shapes), 260));
    if (device_) {
        const int stack = device_model_->column(device_op_column::kCallStack);
        table_->setColumnWidth(stack, qMin(table_->columnWidth(stack), 360));
    }
}

// Every column is set: the two tables share the view's header.
void OperatorsView::updateColumnVisibility() {
    const table::TableSpec& spec = device_ ? device_model_->spec() : model_->spec();
    for (size_t c = 0; c < spec.columns.size(); ++c) {
        const std::string& key = spec.columns[c].key;
        table_->setColumnHidden(
            int(c),
            device_ ? hiddenDeviceOpColumn(key, device_model_->byDevice(), deviceGrouping())
                    : hiddenOpColumn(key, model_->totalSelfDeviceNs() > 0, by_shape_->isChecked()));
    }
}

void OperatorsView::showCallStacks() {
    if (!device_) return stacks_->clear();
    const QModelIndex current = table_->selectionModel()->currentIndex();
    if (!device_->hasCallStacks())
        stacks_->setPlainText(noCallStacksText());
    else if (!current.isValid())
        stacks_->setPlainText(tr("Select an operator to see its call stacks."));
    else
        stacks_->setPlainText(callStacksText(
            device_->by_stack, device_model_->rowAt(proxy_->mapToSource(current).row()),
            deviceGrouping()));
}

} // namespace ts::gui
