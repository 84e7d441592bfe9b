#pragma once
// A view made of core tables alone (report/TableSpec.h): notes, a filter
// and each table under its title, sortable and exported as the CLI's CSV.
// A view whose analysis gives tables needs no widget of its own: its page
// (shell/ViewPages.cpp) builds the tables and hands them here.
#include <vector>

#include <QStringList>
#include <QWidget>

#include "common/ViewFrame.h"
#include "report/TableSpec.h"

class QLabel;
class QLineEdit;
class QSplitter;
class QTableView;
class QVBoxLayout;

namespace ts::gui {

class AppSettings;
class SortFilterProxy;
class SpecTableModel;

// What a tables view shows.
struct SpecTables {
    QStringList notes; // above the tables (what was left out, and why)
    std::vector<table::TableSpec> tables;
};

class SpecTablesView : public QWidget {
    Q_OBJECT
public:
    explicit SpecTablesView(AppSettings* settings = nullptr, QWidget* parent = nullptr);

    void setTables(const SpecTables& tables, const QString& description);
    // Empty, with `message` where the tables go (waiting, or nothing to show).
    void showPending(const QString& message);
    void clear(const QString& message = {});

    int tableCount() const { return int(models_.size()); }
    SpecTableModel* model(int table) const { return models_.at(size_t(table)); }
    SortFilterProxy* proxy(int table) const { return proxies_.at(size_t(table)); }
    QTableView* tableView(int table) const { return views_.at(size_t(table)); }
    QString messageText() const { return frame_.messageText(); }
    QString notesText() const;
    // Keeps the rows whose first text column contains `text`, in every table.
    void setNameFilter(const QString& text);
    // `table` as the CLI writes it (keys, exact numbers), its rows as filtered.
    bool exportCsv(int table, const QString& path, QString* error) const;

signals:
    // A row about one trace event (TableSpec::row_events) was activated
    // (double-click, Enter): show it on the timeline.
    void eventActivated(int32_t event);
    // Any row activated: its table and its row in the TableSpec (not the
    // sorted view's), for views whose rows stand for several events.
    void rowActivated(int table, int row);

protected:
    // For views that add controls above the tables (CriticalPathView).
    QVBoxLayout* bodyLayout() const { return frame_.bodyLayout(); }

private:
    void emitRowEvent(size_t table, const QModelIndex& at);
    void rebuild(size_t count);
    QWidget* tablePane(size_t index);

    AppSettings* settings_;
    QLabel* notes_;
    QLineEdit* filter_;
    QSplitter* tables_;
    std::vector<QLabel*> titles_;
    std::vector<SpecTableModel*> models_;
    std::vector<SortFilterProxy*> proxies_;
    std::vector<QTableView*> views_;
    std::vector<int> filtered_; // per table, the column the filter reads (-1: none)
    ViewFrame frame_;
};

} // namespace ts::gui
