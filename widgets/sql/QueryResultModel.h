#pragma once
// The rows of a query as they arrive: appended in batches by the Query tab
// (from its worker), shown a page at a time as the view scrolls (Qt's
// canFetchMore / fetchMore), so a result of 100,000 rows costs the rows on
// screen, not a table of 100,000 rows laid out at once.
#include <vector>

#include <QAbstractTableModel>
#include <QStringList>
#include <QVariant>

namespace ts::gui {

using QueryRow = std::vector<QVariant>; // NULL: an invalid QVariant

class QueryResultModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kPage = 1000;
    using QAbstractTableModel::QAbstractTableModel;

    void reset(const QStringList& columns);
    void append(std::vector<QueryRow> rows);
    int received() const { return int(rows_.size()); } // shown or not yet
    const QStringList& columns() const { return columns_; }
    // The row's value of a column (received rows, shown or not).
    QVariant valueAt(int row, int column) const;
    // The column named `name`, -1 none.
    int columnNamed(const QString& name) const { return int(columns_.indexOf(name)); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

private:
    QStringList columns_;
    std::vector<QueryRow> rows_;
    int shown_ = 0;
    bool inserting_ = false; // a view's fetchMore during our insert waits for the next
};

} // namespace ts::gui
