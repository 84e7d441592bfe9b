#pragma once
// Reading the cells of a view's item model in the widget tests (one
// definition for every test file: the files share unity batches).
#include <QAbstractItemModel>
#include <QStringList>

#include "common/ItemRoles.h"

namespace ts::testing {

// Column `col` of every row, as `role` gives it (the shown text by default).
inline QStringList column(const QAbstractItemModel& model, int col, int role = Qt::DisplayRole) {
    QStringList values;
    for (int r = 0; r < model.rowCount(); ++r)
        values << model.index(r, col).data(role).toString();
    return values;
}

// The raw number a cell sorts by (gui::SortRole).
inline double sortValue(const QAbstractItemModel& model, int row, int col) {
    return model.index(row, col).data(gui::SortRole).toDouble();
}

} // namespace ts::testing
