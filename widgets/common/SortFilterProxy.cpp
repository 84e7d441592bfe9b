#include "common/SortFilterProxy.h"

#include "common/ItemRoles.h"

namespace ts::gui {

SortFilterProxy::SortFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(SortRole);
    setFilterRole(Qt::DisplayRole);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    setDynamicSortFilter(true);
}

void SortFilterProxy::setTextFilter(int column, const QString& text) {
    setFilterKeyColumn(column);
    setFilterFixedString(text.trimmed());
}

} // namespace ts::gui
