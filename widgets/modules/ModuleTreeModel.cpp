#include "modules/ModuleTreeModel.h"

#include "common/TableModel.h"

namespace ts::gui {
namespace {

double us(int64_t ns) {
    return double(ns) / 1000.0;
}

QString usText(double value) {
    return QString::number(value, 'f', value < 100 ? 2 : 1);
}

} // namespace

ModuleTreeModel::ModuleTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

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
        nodes_.push_back(Node{&rows[r], parent, int(r), {}});
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
    if (column < 0 || column >= ColumnCount || row < 0) return {};
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
    return ColumnCount;
}

QVariant ModuleTreeModel::data(const QModelIndex& index, int role) const {
    const ModuleRow* row = rowAt(index);
    if (!row) return {};
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(column == Name ? (Qt::AlignLeft | Qt::AlignVCenter)
                                                  : (Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole && column == Name) return pathOf(index);
    if (role != Qt::DisplayRole && role != SortRole) return {};
    const bool display = role == Qt::DisplayRole;
    auto time = [display](double value) { return display ? QVariant(usText(value)) : value; };
    switch (Column(column)) {
    case Name:
        return QString::fromStdString(row->name);
    case Calls:
        return qint64(row->occurrences);
    case Operators:
        return qint64(row->operators);
    case HostTotalUs:
        return time(us(row->host_total_ns));
    case HostSelfUs:
        return time(us(row->host_self_ns));
    case DeviceTotalUs:
        return time(us(row->device_total_ns));
    case DeviceSelfUs:
        return time(us(row->device_self_ns));
    case MeanUs:
        return time(row->avgNs() / 1000.0);
    case ModuleId:
        return qint64(row->module_id);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant ModuleTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    static const char* const headers[ColumnCount][2] = {
        {"Module", "The module's class; its place in the tree is where it was called from"},
        {"Calls", "Calls of the module's forward at this place"},
        {"Operators", "Operators it called directly (not through a child module)"},
        {"Host Total (us)", "CPU time inside its calls"},
        {"Host Self (us)", "CPU time inside its calls, less its child modules'"},
        {"Device Total (us)", "GPU time of the kernels, copies and sets its operators launched"},
        {"Device Self (us)", "GPU time launched by the operators it called directly"},
        {"Mean (us)", "Device time per call, or host time per call without device work"},
        {"Module Id", "torch.profiler's Python module id (one per module instance)"},
    };
    if (section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return tr(headers[section][0]);
    if (role == Qt::ToolTipRole) return tr(headers[section][1]);
    return {};
}

} // namespace ts::gui
