#include "sql/QueryResultModel.h"

#include <algorithm>

#include <QColor>

namespace ts::gui {

void QueryResultModel::reset(const QStringList& columns) {
    beginResetModel();
    columns_ = columns;
    rows_.clear();
    shown_ = 0;
    endResetModel();
}

void QueryResultModel::append(std::vector<QueryRow> rows) {
    const bool all_shown = shown_ == int(rows_.size());
    rows_.insert(rows_.end(), std::make_move_iterator(rows.begin()),
                 std::make_move_iterator(rows.end()));
    // The first page shows as it comes; later rows wait for a scroll.
    if (all_shown && shown_ < kPage) {
        const int show = std::min(int(rows_.size()), kPage);
        if (show > shown_) {
            inserting_ = true;
            beginInsertRows({}, shown_, show - 1);
            shown_ = show;
            endInsertRows();
            inserting_ = false;
        }
    }
}

QVariant QueryResultModel::valueAt(int row, int column) const {
    if (row < 0 || row >= int(rows_.size()) || column < 0 || column >= int(columns_.size()))
        return {};
    return rows_[size_t(row)][size_t(column)];
}

int QueryResultModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : shown_;
}

int QueryResultModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(columns_.size());
}

QVariant QueryResultModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= shown_) return {};
    const QVariant& v = rows_[size_t(index.row())][size_t(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        return v.isValid() ? v : QVariant(QStringLiteral("NULL"));
    case Qt::UserRole: // the sort key: the value itself
        return v;
    case Qt::TextAlignmentRole:
        return v.typeId() == QMetaType::QString || !v.isValid()
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        return v.isValid() ? QVariant() : QVariant(QColor(Qt::gray));
    case Qt::ToolTipRole:
        return v.typeId() == QMetaType::QString && v.toString().size() > 60 ? v : QVariant();
    default:
        return {};
    }
}

QVariant QueryResultModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) return {};
    if (orientation == Qt::Vertical) return section + 1;
    return section < columns_.size() ? columns_[section] : QVariant();
}

bool QueryResultModel::canFetchMore(const QModelIndex& parent) const {
    return !parent.isValid() && !inserting_ && shown_ < int(rows_.size());
}

void QueryResultModel::fetchMore(const QModelIndex& parent) {
    if (parent.isValid() || inserting_) return;
    const int show = std::min(int(rows_.size()), shown_ + kPage);
    if (show <= shown_) return;
    inserting_ = true;
    beginInsertRows({}, shown_, show - 1);
    shown_ = show;
    endInsertRows();
    inserting_ = false;
}

} // namespace ts::gui
