#pragma once
// The one proxy every table uses: sorts on the models' raw SortRole values and
// filters on the displayed text of one column (case-insensitive substring).
#include <QSortFilterProxyModel>

namespace ts::gui {

class SortFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit SortFilterProxy(QObject* parent = nullptr);

    // Filters rows whose `column` text contains `text` (empty = no filter).
    void setTextFilter(int column, const QString& text);
};

} // namespace ts::gui
