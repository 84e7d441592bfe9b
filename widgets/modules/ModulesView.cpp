#include "modules/ModulesView.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include "common/ItemRoles.h"
#include "common/SortFilterProxy.h"
#include "common/TableSetup.h"
#include "modules/ModuleTreeModel.h"
#include "report/ModuleTables.h"

namespace ts::gui {

ModuleCallModel::ModuleCallModel(QObject* parent)
    : SpecRowsModel<ModuleCall>(moduleCallTable, parent) {}

ModulesView::ModulesView(QWidget* parent)
    : QWidget(parent), model_(new ModuleTreeModel(this)), proxy_(new SortFilterProxy(this)),
      tree_(new QTreeView), calls_(new ModuleCallModel(this)), call_table_(new QTableView),
      filter_(new QLineEdit), calls_title_(new QLabel), frame_(this) {
    setObjectName(QStringLiteral("modulesView"));
    proxy_->setSourceModel(model_);
    // A match keeps its ancestors, so the tree stays a tree while filtering.
    proxy_->setRecursiveFilteringEnabled(true);
    proxy_->setFilterKeyColumn(ModuleTreeModel::column(module_column::kName));
    tree_->setModel(proxy_);
    tree_->setSortingEnabled(true);
    tree_->sortByColumn(ModuleTreeModel::column(module_column::kHostTotalUs), Qt::DescendingOrder);
    tree_->setAlternatingRowColors(true);
    tree_->setUniformRowHeights(true);
    tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
    tree_->header()->setStretchLastSection(false);
    setUpTable(call_table_, new SortFilterProxy(this), calls_);
    call_table_->setToolTip(tr("Double-click a call to show it on the timeline"));
    filter_->setPlaceholderText(tr("Filter by module name"));
    filter_->setClearButtonEnabled(true);

    auto* calls = new QWidget;
    auto* calls_layout = new QVBoxLayout(calls);
    calls_layout->setContentsMargins(0, 0, 0, 0);
    calls_layout->addWidget(calls_title_);
    calls_layout->addWidget(call_table_, 1);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(tree_);
    split->addWidget(calls);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    QVBoxLayout* body = frame_.bodyLayout();
    body->addWidget(filter_);
    body->addWidget(split, 1);

    connect(filter_, &QLineEdit::textChanged, this, &ModulesView::setNameFilter);
    connect(tree_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showCallsOf(current); });
    connect(call_table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const int row = index.data(RowRole).toInt();
        if (row >= 0 && row < calls_->rowCount()) emit callActivated(calls_->rowAt(row));
    });
    clear();
}

void ModulesView::clear() {
    setView(nullptr, QString());
}

void ModulesView::showPending(const QString& message) {
    setView(nullptr, QString());
    frame_.show(QString(), message);
}

void ModulesView::setView(std::shared_ptr<const ModuleView> view, const QString& description) {
    view_ = std::move(view);
    model_->setView(view_);
    const bool none = !view_ || view_->empty();
    frame_.show(description,
                !view_ ? tr("No trace yet: open a torch.profiler trace recorded with "
                            "with_modules=True (or with_stack=True) to see its modules.")
                : none ? (view_->reason.empty() ? tr("This trace has no module information.")
                                                : QString::fromStdString(view_->reason))
                       : QString());
    tree_->expandToDepth(1);
    for (int c = 0; c < model_->columnCount(); ++c)
        tree_->resizeColumnToContents(c);
    tree_->setColumnWidth(
        ModuleTreeModel::column(module_column::kName),
        qBound(160, tree_->columnWidth(ModuleTreeModel::column(module_column::kName)), 420));
    showCallsOf({});
}

QString ModulesView::messageText() const {
    return frame_.messageText();
}

void ModulesView::setNameFilter(const QString& text) {
    if (filter_->text() != text) filter_->setText(text);
    proxy_->setTextFilter(ModuleTreeModel::column(module_column::kName), text);
    if (!text.trimmed().isEmpty()) tree_->expandAll();
}

bool ModulesView::selectModule(const QString& text) {
    QList<QModelIndex> pending{QModelIndex()};
    while (!pending.isEmpty()) {
        const QModelIndex parent = pending.takeFirst();
        for (int r = 0; r < proxy_->rowCount(parent); ++r) {
            const QModelIndex index = proxy_->index(r, 0, parent);
            const QModelIndex source = proxy_->mapToSource(index);
            if (model_->pathOf(source) == text || index.data().toString() == text) {
                tree_->setCurrentIndex(index);
                tree_->scrollTo(index);
                return true;
            }
            pending << index;
        }
    }
    return false;
}

void ModulesView::showCallsOf(const QModelIndex& proxy_index) {
    const QModelIndex source = proxy_->mapToSource(proxy_index);
    const ModuleRow* row = model_->rowAt(source);
    calls_->setRows(row ? row->calls : std::vector<ModuleCall>{});
    calls_title_->setText(row ? tr("Calls of %1 (%2): double-click one to see it on the "
                                   "timeline")
                                    .arg(model_->pathOf(source))
                                    .arg(row->calls.size())
                              : tr("Select a module to list its calls."));
    calls_title_->setWordWrap(true);
    call_table_->resizeColumnsToContents();
}

} // namespace ts::gui
