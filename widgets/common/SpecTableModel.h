#pragma once
// The item model of a table described by a TableSpec (report/TableSpec.h):
// the same columns and titles as the CLI prints, and its cell texts but for
// numbers with a unit, shown in the GUI's style (µs with two decimals below
// 100 and one above, shares with two); numbers sorted by their values
// (SortRole, as TableModel's), the column's tooltip on its header. A view
// that shows a core table needs no model of its own.
#include <QAbstractTableModel>

#include "report/TableSpec.h"

namespace ts::gui {

// A cell as every model of a core table shows it: DisplayRole (numbers with
// a unit in the GUI's style), SortRole and the alignment; for models that
// are not one table (ModuleTreeModel).
QVariant specCellData(const table::Column& column, const table::Cell& cell, int role);
// A column's title (DisplayRole) and tooltip.
QVariant specHeaderData(const table::Column& column, int role);

class SpecTableModel : public QAbstractTableModel {
public:
    explicit SpecTableModel(QObject* parent = nullptr);

    // Shows `spec` without the optional columns it leaves empty
    // (table::shown), or with every column for views that address columns
    // by a fixed index and hide them themselves.
    void setSpec(const table::TableSpec& spec, bool every_column = false);
    const table::TableSpec& spec() const { return spec_; }
    // Adds rows with every column of the spec shown (every_column models).
    void appendSpecRows(table::TableSpec more);
    // New cells for the same rows (a live table's refresh): views keep their
    // selection and scroll position. A table of other rows or columns resets
    // the model as setSpec does.
    void updateSpec(const table::TableSpec& spec, bool every_column = false);
    // The column whose key is `key`; -1 when it is not shown.
    int column(const std::string& key) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

protected:
    // A cell's tooltip; by default its text.
    virtual QVariant toolTip(int row, int column) const;

private:
    table::TableSpec spec_;
};

} // namespace ts::gui
