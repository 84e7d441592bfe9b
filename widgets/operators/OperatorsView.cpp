#include "operators/OperatorsView.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "common/SortFilterProxy.h"
#include "common/TableSetup.h"
#include "operators/OpTableModel.h"
#include "operators/TopOpsChart.h"

namespace ts::gui {

OperatorsView::OperatorsView(QWidget* parent)
    : QWidget(parent), model_(new OpTableModel(this)), proxy_(new SortFilterProxy(this)),
      table_(new QTableView), filter_(new QLineEdit),
      by_shape_(new QCheckBox(tr("Group by input shape"))), scope_(new QComboBox),
      top_n_(new QSpinBox), source_(new QLabel) {
    proxy_->setSourceModel(model_);
    proxy_->setFilterKeyColumn(OpTableModel::Name);
    chart_ = new TopOpsChart(proxy_, OpTableModel::Name, OpTableModel::SelfCpu);

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

    auto* bar = new QHBoxLayout;
    bar->addWidget(filter_, 2);
    bar->addWidget(by_shape_);
    bar->addWidget(scope_);
    bar->addWidget(top_n_);

    TableOptions table;
    table.sortColumn = OpTableModel::SelfCpu;
    table.sortOrder = Qt::DescendingOrder;
    setUpTable(table_, proxy_, nullptr, table); // the proxy's source is set above

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(table_);
    split->addWidget(chart_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({650, 350});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(source_);
    layout->addWidget(split, 1);

    connect(filter_, &QLineEdit::textChanged, this, &OperatorsView::setNameFilter);
    connect(by_shape_, &QCheckBox::toggled, this, &OperatorsView::recompute);
    connect(scope_, &QComboBox::currentIndexChanged, this, &OperatorsView::recompute);
    connect(top_n_, &QSpinBox::valueChanged, chart_, &TopOpsChart::setTopN);
    connect(table_->horizontalHeader(), &QHeaderView::sortIndicatorChanged, chart_,
            [this](int column, Qt::SortOrder) { chart_->setColumn(column); });
    clear();
}

void OperatorsView::clear() {
    trace_.reset();
    model_->clear();
    source_->setText(tr("No trace yet: run with profiling enabled, or open a run or a Chrome trace "
                        "(File ▸ Open, or drop it on the window)."));
    updateColumnVisibility();
}

void OperatorsView::setTrace(std::shared_ptr<const Trace> trace, const QString& description) {
    trace_ = std::move(trace);
    source_->setText(description);
    recompute();
}

void OperatorsView::setNameFilter(const QString& text) {
    if (filter_->text() != text) filter_->setText(text); // keeps the field in step (tests, API)
    proxy_->setTextFilter(OpTableModel::Name, text);
}

void OperatorsView::setGroupByShape(bool byShape) {
    by_shape_->setChecked(byShape);
}

void OperatorsView::setScope(OpScope scope) {
    scope_->setCurrentIndex(scope_->findData(int(scope)));
}

void OperatorsView::recompute() {
    if (!trace_) return;
    const OpGrouping grouping =
        by_shape_->isChecked() ? OpGrouping::NameAndShapes : OpGrouping::Name;
    const auto scope = OpScope(scope_->currentData().toInt());
    model_->setTable(computeOpStats(*trace_, grouping, scope));
    updateColumnVisibility();
    table_->resizeColumnsToContents();
    table_->setColumnWidth(OpTableModel::Name, qMin(table_->columnWidth(OpTableModel::Name), 320));
    table_->setColumnWidth(OpTableModel::Shapes,
                           qMin(table_->columnWidth(OpTableModel::Shapes), 260));
}

// Columns that would be empty for this trace are hidden (no device time on a
// CPU run; shapes only when grouped by them).
void OperatorsView::updateColumnVisibility() {
    const bool device = model_->totalSelfDeviceNs() > 0;
    table_->setColumnHidden(OpTableModel::SelfDevice, !device);
    table_->setColumnHidden(OpTableModel::DeviceTotal, !device);
    table_->setColumnHidden(OpTableModel::Shapes, !by_shape_->isChecked());
}

} // namespace ts::gui
