#include "common/TableSetup.h"

#include <QHeaderView>
#include <QTableView>

#include "common/SortFilterProxy.h"

namespace ts::gui {

void setUpTable(QTableView* table, SortFilterProxy* proxy, QAbstractItemModel* source,
                const TableOptions& options) {
    if (source) proxy->setSourceModel(source);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(options.sortColumn, options.sortOrder);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(options.selection);
    table->setAlternatingRowColors(options.alternatingRows);
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setSectionsMovable(options.movableColumns);
    table->horizontalHeader()->setStretchLastSection(options.stretchLastColumn);
    table->setWordWrap(false);
}

} // namespace ts::gui
