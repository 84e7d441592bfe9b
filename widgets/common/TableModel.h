#pragma once
// A table model whose subclasses only supply their row type and column list
// (hotspot style). Every column gives the raw value for sorting (SortRole) and
// the formatted text for display, so a proxy sorts 9 < 10 < 100 numerically
// while the view shows "9 ms", "10 ms", "100 ms".
#include <functional>
#include <utility>
#include <vector>

#include <QAbstractTableModel>
#include <QString>
#include <QVariant>

#include "common/ItemRoles.h"

namespace ts::gui {

template <typename Row> struct TableColumn {
    QString header;
    QString tooltip;
    // Raw value: numbers for numeric columns, text otherwise; an invalid
    // QVariant for "unknown" so it sorts after every known value.
    std::function<QVariant(const Row&)> value;
    // Display text; when empty the raw value is shown as is.
    std::function<QString(const Row&)> text = {};
    bool numeric = true;
};

template <typename Row> class TableModel : public QAbstractTableModel {
public:
    explicit TableModel(std::vector<TableColumn<Row>> columns, QObject* parent = nullptr)
        : QAbstractTableModel(parent), columns_(std::move(columns)) {}

    void setRows(std::vector<Row> rows) {
        beginResetModel();
        rows_ = std::move(rows);
        endResetModel();
    }
    void appendRows(std::vector<Row> rows) {
        if (rows.empty()) return;
        const int first = int(rows_.size());
        beginInsertRows({}, first, first + int(rows.size()) - 1);
        for (auto& row : rows)
            rows_.push_back(std::move(row));
        endInsertRows();
    }
    void clear() { setRows({}); }

    const std::vector<Row>& rows() const { return rows_; }
    const Row& rowAt(int row) const { return rows_.at(size_t(row)); }
    const TableColumn<Row>& column(int column) const { return columns_.at(size_t(column)); }

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : int(rows_.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : int(columns_.size());
    }

    QVariant data(const QModelIndex& index, int role) const override {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
            return {};
        const Row& row = rows_[size_t(index.row())];
        const TableColumn<Row>& col = columns_[size_t(index.column())];
        switch (role) {
        case Qt::DisplayRole:
            return col.text ? QVariant(col.text(row)) : col.value(row);
        case Qt::ToolTipRole:
            return toolTip(row, index.column());
        case SortRole:
            return col.value(row);
        case RowRole:
            return index.row();
        case Qt::TextAlignmentRole:
            return QVariant::fromValue(col.numeric ? (Qt::AlignRight | Qt::AlignVCenter)
                                                   : (Qt::AlignLeft | Qt::AlignVCenter));
        default:
            return {};
        }
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override {
        if (orientation != Qt::Horizontal || section < 0 || section >= int(columns_.size()))
            return QAbstractTableModel::headerData(section, orientation, role);
        if (role == Qt::DisplayRole) return columns_[size_t(section)].header;
        if (role == Qt::ToolTipRole) return columns_[size_t(section)].tooltip;
        return {};
    }

protected:
    // Full-cell tooltip; by default the display text (useful for elided names).
    virtual QVariant toolTip(const Row& row, int column) const {
        const TableColumn<Row>& col = columns_[size_t(column)];
        return col.text ? QVariant(col.text(row)) : col.value(row);
    }

private:
    std::vector<TableColumn<Row>> columns_;
    std::vector<Row> rows_;
};

} // namespace ts::gui
