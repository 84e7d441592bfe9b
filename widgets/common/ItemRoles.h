#pragma once
// The roles that every table model of the GUI answers beside Qt's: the
// proxies sort by SortRole (9 < 10 < 100 while "9 ms", "10 ms", "100 ms"
// show) and views map a proxy's row back to the source's with RowRole.
#include <Qt>

namespace ts::gui {

enum ItemRole {
    SortRole = Qt::UserRole, // raw number (or string) used by the proxies for sorting
    RowRole,                 // index of the row in the source model
};

} // namespace ts::gui
