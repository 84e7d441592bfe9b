#pragma once
// The one set-up of the workbench's tables: a SortFilterProxy between the
// model and the view (numeric sorting on SortRole, text filter), whole-row
// selection, compact rows without row numbers, no word wrap.
#include <QAbstractItemView>

class QAbstractItemModel;
class QTableView;

namespace ts::gui {

class SortFilterProxy;

struct TableOptions {
    int sortColumn = -1; // -1: the model's order until the user sorts
    Qt::SortOrder sortOrder = Qt::AscendingOrder;
    QAbstractItemView::SelectionMode selection = QAbstractItemView::ExtendedSelection;
    bool movableColumns = true;
    bool stretchLastColumn = false;
    bool alternatingRows = true;
};

// Shows `source` (may be null, set later on the proxy) through `proxy` in `table`.
void setUpTable(QTableView* table, SortFilterProxy* proxy, QAbstractItemModel* source,
                const TableOptions& options = {});

} // namespace ts::gui
