#include "common/SpecTablesView.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "common/CsvExport.h"
#include "common/ExportFile.h"
#include "common/ItemRoles.h"
#include "common/SortFilterProxy.h"
#include "common/SpecTableModel.h"
#include "common/TableSetup.h"

namespace ts::gui {

SpecTablesView::SpecTablesView(AppSettings* settings, QWidget* parent)
    : QWidget(parent), settings_(settings), notes_(new QLabel), filter_(new QLineEdit),
      tables_(new QSplitter(Qt::Vertical)), frame_(this) {
    notes_->setWordWrap(true);
    notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    filter_->setPlaceholderText(tr("Filter by name"));
    filter_->setClearButtonEnabled(true);
    tables_->setChildrenCollapsible(false);
    frame_.bodyLayout()->addWidget(notes_);
    frame_.bodyLayout()->addWidget(filter_);
    frame_.bodyLayout()->addWidget(tables_, 1);
    connect(filter_, &QLineEdit::textChanged, this, &SpecTablesView::setNameFilter);
    clear();
}

QWidget* SpecTablesView::tablePane(size_t index) {
    auto* pane = new QWidget;
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    auto* title = new QLabel;
    auto* save = new QPushButton(tr("Export CSV…"));
    bar->addWidget(title, 1);
    bar->addWidget(save);
    layout->addLayout(bar);
    auto* view = new QTableView;
    auto* model = new SpecTableModel(this);
    auto* proxy = new SortFilterProxy(this);
    setUpTable(view, proxy, model);
    layout->addWidget(view, 1);
    connect(view, &QTableView::activated, this,
            [this, index](const QModelIndex& at) { emitRowEvent(index, at); });
    connect(save, &QPushButton::clicked, this, [this, index, title] {
        if (!settings_) return;
        exportFileInteractive(this, *settings_, tr("Export table"),
                              title->text().toLower().replace(QLatin1Char(' '), QLatin1Char('_')) +
                                  QStringLiteral(".csv"),
                              tr("CSV files (*.csv)"),
                              [this, index](const QString& path, QString* e) {
                                  return exportCsv(int(index), path, e);
                              });
    });
    titles_.push_back(title);
    models_.push_back(model);
    proxies_.push_back(proxy);
    views_.push_back(view);
    return pane;
}

// As many table panes as tables, made once per count.
void SpecTablesView::rebuild(size_t count) {
    if (models_.size() == count) return;
    while (tables_->count() > 0)
        delete tables_->widget(0);
    for (SpecTableModel* m : models_)
        delete m;
    for (SortFilterProxy* p : proxies_)
        delete p;
    titles_.clear();
    models_.clear();
    proxies_.clear();
    views_.clear();
    for (size_t i = 0; i < count; ++i)
        tables_->addWidget(tablePane(i));
}

void SpecTablesView::setTables(const SpecTables& tables, const QString& description) {
    rebuild(tables.tables.size());
    for (size_t i = 0; i < tables.tables.size(); ++i) {
        const table::TableSpec& spec = tables.tables[i];
        titles_[i]->setText(QString::fromStdString(spec.title) +
                            (spec.row_events.empty()
                                 ? QString()
                                 : tr(" (double-click a row to see it on the timeline)")));
        models_[i]->setSpec(spec);
        views_[i]->resizeColumnsToContents();
        // Long names (kernels run to hundreds of characters) get a bounded
        // width; the tooltip has the whole text.
        for (int c = 0; c < models_[i]->columnCount(); ++c)
            views_[i]->setColumnWidth(c, qMin(views_[i]->columnWidth(c), 420));
    }
    // The filter is for tables whose rows are named: their first text column
    // (the kernel, the category).
    bool named = false;
    filtered_.assign(tables.tables.size(), -1);
    for (size_t t = 0; t < tables.tables.size(); ++t)
        for (size_t c = 0; c < tables.tables[t].columns.size() && filtered_[t] < 0; ++c)
            if (tables.tables[t].columns[c].kind == table::ColumnKind::Text) filtered_[t] = int(c);
    for (int column : filtered_)
        named = named || column >= 0;
    filter_->setVisible(named);
    notes_->setText(tables.notes.join(QLatin1Char('\n')));
    notes_->setVisible(!tables.notes.isEmpty());
    setNameFilter(filter_->text());
    // Without tables the notes say why, where the tables would be.
    const QString why =
        tables.notes.isEmpty() ? tr("Nothing to show.") : tables.notes.join(QLatin1Char('\n'));
    frame_.show(description, tables.tables.empty() ? why : QString());
}

void SpecTablesView::emitRowEvent(size_t table, const QModelIndex& at) {
    const int row = proxies_[table]->mapToSource(at).row();
    if (row >= 0) emit rowActivated(int(table), row);
    const std::vector<int32_t>& events = models_[table]->spec().row_events;
    if (row >= 0 && size_t(row) < events.size() && events[size_t(row)] >= 0)
        emit eventActivated(events[size_t(row)]);
}

void SpecTablesView::showPending(const QString& message) {
    clear(message);
}

void SpecTablesView::clear(const QString& message) {
    for (SpecTableModel* m : models_)
        m->setSpec({});
    notes_->clear();
    frame_.show(QString(), message.isEmpty() ? tr("Open a torch.profiler trace.") : message);
}

QString SpecTablesView::notesText() const {
    return notes_->text();
}

void SpecTablesView::setNameFilter(const QString& text) {
    if (filter_->text() != text) filter_->setText(text);
    for (size_t t = 0; t < proxies_.size() && t < filtered_.size(); ++t)
        if (filtered_[t] >= 0) proxies_[t]->setTextFilter(filtered_[t], text);
}

bool SpecTablesView::exportCsv(int index, const QString& path, QString* error) const {
    const SortFilterProxy& proxy = *proxies_.at(size_t(index));
    const table::TableSpec& all = models_.at(size_t(index))->spec();
    table::TableSpec shown = all;
    shown.rows.clear();
    for (int r = 0; r < proxy.rowCount(); ++r)
        shown.rows.push_back(all.rows[size_t(proxy.index(r, 0).data(RowRole).toInt())]);
    return writeTextFile(path, QString::fromStdString(table::toDataCsv(shown)), error);
}

} // namespace ts::gui
