#include "common/SpecTableModel.h"

#include <algorithm>
#include <cmath>

#include "common/Format.h"
#include "common/ItemRoles.h"

namespace ts::gui {

namespace {

// The GUI's style for numbers with a unit (as every other table of the GUI
// shows them); the cell's text (the CLI's) otherwise.
QString shownText(const table::Column& column, const table::Cell& cell) {
    if (std::isnan(cell.value))
        return column.unit == table::ColumnUnit::None ? QString::fromStdString(cell.text)
                                                      : QStringLiteral("–");
    switch (column.unit) {
    case table::ColumnUnit::Microseconds:
        return QString::number(cell.value, 'f', std::fabs(cell.value) < 100 ? 2 : 1);
    case table::ColumnUnit::Milliseconds:
        return QString::number(cell.value, 'f', 3);
    case table::ColumnUnit::Percent:
        return QString::number(cell.value, 'f', 2);
    case table::ColumnUnit::Bytes:
        return format::bytes(cell.value);
    case table::ColumnUnit::Nanoseconds:
        return format::durationNs(int64_t(cell.value));
    case table::ColumnUnit::Flops:
        return format::flops(cell.value);
    case table::ColumnUnit::None:
        break;
    }
    return QString::fromStdString(cell.text);
}

} // namespace

QVariant specCellData(const table::Column& column, const table::Cell& cell, int role) {
    switch (role) {
    case Qt::DisplayRole:
        return shownText(column, cell);
    case SortRole:
        // Unknown numbers stay invalid, so they sort after every known one.
        if (!column.numeric()) return QString::fromStdString(cell.text);
        if (std::isnan(cell.value)) return {};
        // Counts and nanoseconds are whole numbers: sorted and read as such.
        if (column.kind == table::ColumnKind::Integer ||
            column.unit == table::ColumnUnit::Nanoseconds)
            return QVariant(qint64(std::llround(cell.value)));
        return QVariant(cell.value);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(column.numeric() ? (Qt::AlignRight | Qt::AlignVCenter)
                                                    : (Qt::AlignLeft | Qt::AlignVCenter));
    default:
        return {};
    }
}

QVariant specHeaderData(const table::Column& column, int role) {
    if (role == Qt::DisplayRole) return QString::fromStdString(column.title);
    if (role == Qt::ToolTipRole) return QString::fromStdString(column.tooltip);
    return {};
}

SpecTableModel::SpecTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void SpecTableModel::setSpec(const table::TableSpec& spec, bool every_column) {
    beginResetModel();
    spec_ = every_column ? spec : table::shown(spec);
    endResetModel();
}

void SpecTableModel::appendSpecRows(table::TableSpec more) {
    if (more.rows.empty()) return;
    const int first = int(spec_.rows.size());
    beginInsertRows({}, first, first + int(more.rows.size()) - 1);
    table::appendRows(spec_, std::move(more));
    endInsertRows();
}

void SpecTableModel::updateSpec(const table::TableSpec& spec, bool every_column) {
    table::TableSpec next = every_column ? spec : table::shown(spec);
    const bool same_shape =
        !next.rows.empty() && next.rows.size() == spec_.rows.size() &&
        std::equal(next.columns.begin(), next.columns.end(), spec_.columns.begin(),
                   spec_.columns.end(),
                   [](const table::Column& a, const table::Column& b) { return a.key == b.key; });
    if (!same_shape) {
        setSpec(next, true);
        return;
    }
    spec_ = std::move(next);
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

int SpecTableModel::column(const std::string& key) const {
    return spec_.columnIndex(key);
}

int SpecTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(spec_.rows.size());
}

int SpecTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(spec_.columns.size());
}

QVariant SpecTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const table::Column& column = spec_.columns[size_t(index.column())];
    const std::vector<table::Cell>& row = spec_.rows[size_t(index.row())];
    const table::Cell cell =
        size_t(index.column()) < row.size() ? row[size_t(index.column())] : table::Cell{};
    if (role == Qt::ToolTipRole) return toolTip(index.row(), index.column());
    if (role == RowRole) return index.row();
    return specCellData(column, cell, role);
}

QVariant SpecTableModel::toolTip(int row, int column) const {
    return data(index(row, column), Qt::DisplayRole);
}

QVariant SpecTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= int(spec_.columns.size()))
        return QAbstractTableModel::headerData(section, orientation, role);
    return specHeaderData(spec_.columns[size_t(section)], role);
}

} // namespace ts::gui
