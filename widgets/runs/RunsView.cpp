#include "runs/RunsView.h"

#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "common/AppSettings.h"
#include "common/CsvExport.h"
#include "common/ExportFile.h"
#include "common/ItemRoles.h"
#include "common/SortFilterProxy.h"
#include "common/TableSetup.h"
#include "report/ChartRenderer.h"
#include "report/RunTables.h"
#include "runs/ComparisonCharts.h"
#include "runs/RunModels.h"
#include "runs/RunScanner.h"

#include "report/CompareRuns.h"

namespace ts::gui {
namespace {

QTableView* makeTable(SortFilterProxy* proxy, QAbstractItemModel* source,
                      const TableOptions& options = {}) {
    auto* table = new QTableView;
    setUpTable(table, proxy, source, options);
    return table;
}

QString sameDir(const QString& dir) {
    const QString canonical = QDir(dir).canonicalPath();
    return canonical.isEmpty() ? QDir::cleanPath(dir) : canonical;
}

} // namespace

RunsView::RunsView(AppSettings& settings, QWidget* parent)
    : QWidget(parent), settings_(settings), runs_(new RunListModel(this)),
      proxy_(new SortFilterProxy(this)), comparison_(new RunComparisonModel(this)),
      scan_([this](std::vector<RunRow> rows) { onScanned(std::move(rows)); }) {
    proxy_->setSourceModel(runs_);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(buildRunList());
    split->addWidget(buildComparison());
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);
}

QWidget* RunsView::buildRunList() {
    auto* box = new QWidget;
    filter_ = new QLineEdit;
    filter_->setPlaceholderText(tr("Filter runs by name"));
    filter_->setClearButtonEnabled(true);
    auto* open = new QPushButton(tr("Open"));
    open->setToolTip(tr("Show the selected run in Live, Operators and Timeline (Enter)"));
    auto* add = new QPushButton(tr("Add folder…"));
    add->setToolTip(tr("Also list runs found in another folder (e.g. written by trainscope-cli)"));
    auto* remove = new QPushButton(tr("Remove folder…"));
    auto* rescan = new QPushButton(tr("Rescan"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(filter_, 1);
    bar->addWidget(open);
    bar->addWidget(add);
    bar->addWidget(remove);
    bar->addWidget(rescan);
    roots_label_ = new QLabel;
    roots_label_->setWordWrap(true);
    roots_label_->setForegroundRole(QPalette::PlaceholderText);

    TableOptions newest_first;
    newest_first.sortColumn = runs_->column(run_column::kModified);
    newest_first.sortOrder = Qt::DescendingOrder;
    table_ = makeTable(proxy_, nullptr, newest_first); // the proxy's source is set above
    table_->setObjectName(QStringLiteral("runTable"));
    const QByteArray header = settings_.headerState(QStringLiteral("runs"));
    if (!header.isEmpty()) table_->horizontalHeader()->restoreState(header);
    connect(table_->horizontalHeader(), &QHeaderView::sectionMoved, this, [this] {
        settings_.setHeaderState(QStringLiteral("runs"), table_->horizontalHeader()->saveState());
    });

    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(roots_label_);
    layout->addWidget(table_, 1);

    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        proxy_->setTextFilter(runs_->column(run_column::kName), text);
    });
    connect(open, &QPushButton::clicked, this, &RunsView::openSelected);
    connect(table_, &QTableView::activated, this, &RunsView::openSelected);
    connect(add, &QPushButton::clicked, this, &RunsView::chooseFolder);
    connect(remove, &QPushButton::clicked, this, &RunsView::removeFolder);
    connect(rescan, &QPushButton::clicked, this, &RunsView::rescan);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RunsView::updateComparison);
    return box;
}

QWidget* RunsView::buildComparison() {
    auto* box = new QWidget;
    auto* title =
        new QLabel(tr("<b>Comparison</b> — select several runs above (Ctrl/Shift+click)"));
    auto* csv = new QPushButton(tr("Export CSV…"));
    auto* png = new QPushButton(tr("Export PNG…"));
    auto* report = new QPushButton(tr("Export report…"));
    report->setToolTip(tr("comparison.csv, report.md (baseline vs the others, top operators, "
                          "advice, environments) and the charts, into a folder"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(title, 1);
    bar->addWidget(csv);
    bar->addWidget(png);
    bar->addWidget(report);
    comparison_table_ = makeTable(new SortFilterProxy(this), comparison_);
    // Selection order until the user sorts: the same order as the charts' bars.
    comparison_table_->sortByColumn(-1, Qt::AscendingOrder);
    charts_ = new ComparisonCharts;
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(comparison_table_);
    split->addWidget(charts_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    connect(csv, &QPushButton::clicked, this, &RunsView::exportCsvInteractive);
    connect(png, &QPushButton::clicked, this, &RunsView::exportPngInteractive);
    connect(report, &QPushButton::clicked, this, &RunsView::exportReportInteractive);
    return box;
}

QStringList RunsView::roots() const {
    QStringList roots{settings_.runsRoot()};
    for (const QString& folder : settings_.runFolders())
        if (!roots.contains(folder)) roots << folder;
    return roots;
}

void RunsView::rescan() {
    if (scan_.isRunning()) {
        rescan_pending_ = true;
        return;
    }
    roots_label_->setText(tr("Scanning %1 …").arg(roots().join(QStringLiteral(", "))));
    scan_.start([roots = roots()](const CancelFlag&) { return scanRuns(roots); });
}

void RunsView::onScanned(std::vector<RunRow> rows) {
    showRows(std::move(rows));
    emit scanFinished(runs_->rowCount());
    if (rescan_pending_) {
        rescan_pending_ = false;
        rescan();
    }
}

// Replaces the list, keeping the selection (and so the comparison) where the runs still exist.
void RunsView::showRows(std::vector<RunRow> rows) {
    QStringList selected;
    for (const RunRow& row : selectedRows())
        selected << QString::fromStdString(row.dir);
    runs_->setRows(std::move(rows));
    const int count = runs_->rowCount();
    roots_label_->setText((count == 1 ? tr("1 run in %1") : tr("%1 runs in %2").arg(count))
                              .arg(roots().join(QStringLiteral(", "))));
    table_->resizeColumnsToContents();
    const int name = runs_->column(run_column::kName);
    const int directory = runs_->column(run_column::kDirectory);
    table_->setColumnWidth(name, qMin(table_->columnWidth(name), 260));
    table_->setColumnWidth(directory, qMin(table_->columnWidth(directory), 420));
    selectRuns(selected);
}

void RunsView::addFolder(const QString& dir) {
    settings_.addRunFolder(dir);
    rescan();
}

void RunsView::addRun(const QString& dir) {
    RunRow row = readRunRow(dir);
    std::vector<RunRow> rows = runs_->rows();
    const auto same = std::find_if(rows.begin(), rows.end(), [&](const RunRow& r) {
        return sameDir(QString::fromStdString(r.dir)) == sameDir(dir);
    });
    if (same != rows.end())
        *same = std::move(row);
    else
        rows.insert(rows.begin(), std::move(row));
    showRows(std::move(rows));
}

int RunsView::selectRuns(const QStringList& dirs) {
    QSet<QString> wanted;
    for (const QString& dir : dirs)
        wanted.insert(sameDir(dir));
    QItemSelection selection;
    int found = 0;
    for (int row = 0; row < proxy_->rowCount(); ++row) {
        const int source = proxy_->index(row, 0).data(RowRole).toInt();
        if (!wanted.contains(sameDir(QString::fromStdString(runs_->rowAt(source).dir)))) continue;
        selection.select(proxy_->index(row, 0), proxy_->index(row, proxy_->columnCount() - 1));
        ++found;
    }
    table_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    updateComparison();
    return found;
}

std::vector<RunRow> RunsView::selectedRows() const {
    std::vector<RunRow> rows;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows())
        rows.push_back(runs_->rowAt(index.data(RowRole).toInt()));
    return rows;
}

void RunsView::updateComparison() {
    std::vector<RunRow> rows = selectedRows();
    charts_->setRuns(rows);
    comparison_->setRows(std::move(rows));
    comparison_table_->resizeColumnsToContents();
}

void RunsView::openSelected() {
    const std::vector<RunRow> rows = selectedRows();
    if (!rows.empty()) emit openRequested(QString::fromStdString(rows.front().dir));
}

void RunsView::chooseFolder() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Add a folder with runs"),
                                                          settings_.lastBrowseDir());
    if (dir.isEmpty()) return;
    settings_.setLastBrowseDir(dir);
    addFolder(dir);
}

void RunsView::removeFolder() {
    const QStringList folders = settings_.runFolders();
    if (folders.isEmpty()) {
        QMessageBox::information(
            this, tr("Remove folder"),
            tr("Only the default folder %1 is listed.").arg(settings_.runsRoot()));
        return;
    }
    bool ok = false;
    const QString folder = QInputDialog::getItem(
        this, tr("Remove folder"), tr("Stop listing runs in:"), folders, 0, false, &ok);
    if (!ok) return;
    settings_.removeRunFolder(folder);
    rescan();
}

bool RunsView::exportCsv(const QString& path, QString* error) {
    return writeTextFile(path, modelToCsv(*comparison_), error);
}

bool RunsView::exportPng(const QString& path, QString* error) {
    // Four report-sized panels in a 2 x 2 grid, at the reports' pixel ratio.
    if (charts_->savePng(path, 2 * kChartWidth, 2 * kChartHeight, kChartPixelRatio)) return true;
    if (error) *error = tr("Cannot write %1.").arg(path);
    return false;
}

void RunsView::exportCsvInteractive() {
    exportFileInteractive(
        this, settings_, tr("Export comparison as CSV"), QStringLiteral("comparison.csv"),
        tr("CSV files (*.csv)"),
        [this](const QString& path, QString* error) { return exportCsv(path, error); });
}

void RunsView::exportPngInteractive() {
    exportFileInteractive(
        this, settings_, tr("Export comparison charts as PNG"), QStringLiteral("comparison.png"),
        tr("PNG images (*.png)"),
        [this](const QString& path, QString* error) { return exportPng(path, error); });
}

bool RunsView::exportReport(const QString& dir, QString* error) {
    std::vector<std::filesystem::path> dirs;
    for (const RunRow& row : selectedRows())
        dirs.push_back(row.dir);
    if (dirs.empty()) {
        if (error) *error = tr("Select the runs to compare first.");
        return false;
    }
    try {
        writeComparison(loadComparedRuns(dirs), dir.toStdString());
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
}

// A folder of files, written by core: chosen and warned about like a file export.
void RunsView::exportReportInteractive() {
    const QString dir =
        chooseFolderInteractive(this, settings_, tr("Export comparison report into folder"));
    QString error;
    if (!dir.isEmpty() && !exportReport(dir, &error)) warnFailure(this, tr("Export report"), error);
}

} // namespace ts::gui
