#include "modules/ModuleTreeModel.h"

#include "common/SpecTableModel.h"
#include "report/ModuleTables.h"

namespace ts::gui {
ModuleTreeModel::ModuleTreeModel(QObject* parent)
    : QAbstractItemModel(parent), columns_(moduleColumns()) {}

int ModuleTreeModel::column(const char* key) {
    static const table::TableSpec spec = [] {
        table::TableSpec s;
        s.columns = moduleColumns();
        return s;
    }();
    return spec.columnIndex(key);
}

void ModuleTreeModel::setView(std::shared_ptr<const ModuleView> view) {
    beginResetModel();
    view_ = std::move(view);
    nodes_.clear();
    top_.clear();
    if (view_) addNodes(view_->roots, -1);
    endResetModel();
}

void ModuleTreeModel::addNodes(const std::vector<ModuleRow>& rows, int parent) {
    for (size_t r = 0; r < rows.size(); ++r) {
        const int position = int(nodes_.size());
        nodes_.push_back(Node{&rows[r], moduleCells(rows[r]), parent, int(r), {}});
        (parent < 0 ? top_ : nodes_[size_t(parent)].children).push_back(position);
        addNodes(rows[r].children, position);
    }
}

const std::vector<int>& ModuleTreeModel::childrenOf(const QModelIndex& parent) const {
    return parent.isValid() ? nodes_[size_t(parent.internalId())].children : top_;
}

const ModuleRow* ModuleTreeModel::rowAt(const QModelIndex& index) const {
    if (!index.isValid() || index.model() != this) return nullptr;
    return nodes_[size_t(index.internalId())].row;
}

QString ModuleTreeModel::pathOf(const QModelIndex& index) const {
    if (!index.isValid()) return {};
    QStringList names;
    for (int n = int(index.internalId()); n >= 0; n = nodes_[size_t(n)].parent)
        names.prepend(QString::fromStdString(nodes_[size_t(n)].row->name));
    return names.join(QLatin1Char('/'));
}

QModelIndex ModuleTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= int(columns_.size()) || row < 0) return {};
    const std::vector<int>& children = childrenOf(parent);
    if (row >= int(children.size())) return {};
    return createIndex(row, column, quintptr(children[size_t(row)]));
}

QModelIndex ModuleTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) return {};
    const int parent = nodes_[size_t(child.internalId())].parent;
    if (parent < 0) return {};
    return createIndex(nodes_[size_t(parent)].row_in_parent, 0, quintptr(parent));
}

int ModuleTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return 0;
    return int(childrenOf(parent).size());
}

int ModuleTreeModel::columnCount(const QModelIndex&) const {
    return int(columns_.size());
}

QVariant ModuleTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.model() != this) return {};
    const Node& node = nodes_[size_t(index.internalId())];
    if (role == Qt::ToolTipRole && index.column() == 0) return pathOf(index);
    return specCellData(columns_[size_t(index.column())], node.cells[size_t(index.column())], role);
}

QVariant ModuleTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= int(columns_.size())) return {};
    return specHeaderData(columns_[size_t(section)], role);
}

} // namespace ts::gui
