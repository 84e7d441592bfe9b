#pragma once
// A SpecTableModel over rows of the core's own type: the table comes from
// the core function that the CLI prints it with (report/*Tables.h), so the
// GUI and the CLI show the same columns; the rows stay at hand for the views
// that act on a selected one (rowAt) and for the tests. Every column of the
// spec is kept, so a column's index is stable (column(key)).
#include <functional>
#include <utility>
#include <vector>

#include "common/SpecTableModel.h"

namespace ts::gui {

template <typename Row> class SpecRowsModel : public SpecTableModel {
public:
    using Build = std::function<table::TableSpec(const std::vector<Row>&)>;

    explicit SpecRowsModel(Build build, QObject* parent = nullptr)
        : SpecTableModel(parent), build_(std::move(build)) {
        setSpec(build_({}), true);
    }

    void setRows(std::vector<Row> rows) {
        rows_ = std::move(rows);
        setSpec(build_(rows_), true);
    }
    void appendRows(std::vector<Row> rows) {
        table::TableSpec more = build_(rows);
        for (Row& row : rows)
            rows_.push_back(std::move(row));
        appendSpecRows(std::move(more));
    }
    // The same rows, in the same order, with new values (a live table's
    // refresh: the selection stays); other rows reset the model.
    void updateRows(std::vector<Row> rows) {
        rows_ = std::move(rows);
        updateSpec(build_(rows_), true);
    }
    void clear() { setRows({}); }

    const std::vector<Row>& rows() const { return rows_; }
    const Row& rowAt(int row) const { return rows_.at(size_t(row)); }

protected:
    // For tables whose spec needs more than the rows (totals for shares).
    void setRowsWithSpec(std::vector<Row> rows, const table::TableSpec& spec) {
        rows_ = std::move(rows);
        setSpec(spec, true);
    }

private:
    Build build_;
    std::vector<Row> rows_;
};

} // namespace ts::gui
