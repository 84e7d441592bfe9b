#include "roofline/RooflineView.h"

#include <algorithm>

#include <QCheckBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "analysis/NcuCsv.h"
#include "common/AppSettings.h"
#include "common/CsvExport.h"
#include "common/ExportFile.h"
#include "common/ItemRoles.h"
#include "common/SortFilterProxy.h"
#include "common/TableSetup.h"
#include "report/ChartRenderer.h"
#include "report/RooflineReport.h"
#include "roofline/PeaksPanel.h"
#include "roofline/RooflineChart.h"
#include "roofline/RooflineModel.h"

namespace ts::gui {

RooflineView::RooflineView(AppSettings& settings, QWidget* parent)
    : QWidget(parent), settings_(settings), peaks_(new PeaksPanel(settings)),
      chart_(new RooflineChart), model_(new RooflineModel(this)), proxy_(new SortFilterProxy(this)),
      table_(new QTableView), source_(new QLabel), notes_(new QLabel),
      low_precision_(new QCheckBox(tr("bf16/fp16 run"))) {
    table_->setObjectName(QStringLiteral("rooflineTable"));
    TableOptions table;
    table.sortColumn = model_->column(roofline_column::kTimeMs);
    table.sortOrder = Qt::DescendingOrder;
    table.selection = QAbstractItemView::SingleSelection;
    setUpTable(table_, proxy_, model_, table);
    low_precision_->setToolTip(tr("The operators come from a bf16/fp16 autocast run: "
                                  "convolutions and matrix multiplications are held against the "
                                  "reduced-precision roof"));
    source_->setWordWrap(true);
    notes_->setWordWrap(true);
    notes_->setForegroundRole(QPalette::PlaceholderText);

    auto* import = new QPushButton(tr("Import Nsight CSV…"));
    import->setToolTip(tr("Kernels of an `ncu --csv` export (raw or details page)"));
    auto* png = new QPushButton(tr("Export PNG…"));
    auto* csv = new QPushButton(tr("Export CSV…"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(source_, 1);
    bar->addWidget(low_precision_);
    bar->addWidget(import);
    bar->addWidget(png);
    bar->addWidget(csv);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(chart_);
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(peaks_);
    layout->addLayout(bar);
    layout->addWidget(notes_);
    layout->addWidget(split, 1);

    connect(peaks_, &PeaksPanel::peaksChanged, this, &RooflineView::rebuild);
    connect(peaks_, &PeaksPanel::measureFailed, this, [this](const QString& message) {
        notes_->setText(tr("Measuring the peaks failed: %1").arg(message));
    });
    connect(low_precision_, &QCheckBox::toggled, this, &RooflineView::rebuild);
    connect(import, &QPushButton::clicked, this, &RooflineView::importInteractive);
    connect(png, &QPushButton::clicked, this, &RooflineView::exportPngInteractive);
    connect(csv, &QPushButton::clicked, this, &RooflineView::exportCsvInteractive);
    connect(chart_, &RooflineChart::pointClicked, this, &RooflineView::selectTableRow);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RooflineView::onTableSelection);
    clear();
}

void RooflineView::setTrace(std::shared_ptr<const Trace> trace, const QString& description) {
    trace_ = std::move(trace);
    source_->setText(description);
    if (!trace_) {
        clear();
        return;
    }
    trace_pending_ = true;
    if (isVisible()) showEvent(nullptr);
}

void RooflineView::showEvent(QShowEvent* event) {
    if (event) QWidget::showEvent(event);
    if (!trace_pending_ || !trace_) return;
    trace_pending_ = false;
    op_table_ = computeOpStats(*trace_);
    from_op_table_ = true;
    costs_.clear();
    source_notes_.clear();
    rebuild();
}

void RooflineView::setOpTable(const OpTable& table, const QString& description) {
    trace_.reset();
    trace_pending_ = false;
    op_table_ = table;
    from_op_table_ = true;
    costs_.clear();
    source_notes_.clear();
    source_->setText(description);
    rebuild();
}

bool RooflineView::importNcu(const QString& path, QString* error) {
    try {
        const NcuImport import = readNcuCsv(path.toStdString());
        trace_.reset();
        trace_pending_ = false;
        op_table_ = OpTable();
        from_op_table_ = false;
        costs_ = import.kernels;
        source_notes_ = import.notes;
        source_->setText(tr("Nsight Compute export %1: %2 kernels, %3 launches")
                             .arg(QDir::toNativeSeparators(path))
                             .arg(import.kernels.size())
                             .arg(import.launches));
        low_precision_->setChecked(false);
        rebuild();
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
}

void RooflineView::clear() {
    trace_.reset();
    trace_pending_ = false;
    op_table_ = OpTable();
    from_op_table_ = false;
    costs_.clear();
    source_notes_.clear();
    source_->setText(tr("No operators yet: open a profiled run or a trace (its Operators table "
                        "is placed here), or import an Nsight Compute CSV."));
    rebuild();
}

void RooflineView::showPending(const QString& message) {
    clear();
    source_->setText(message);
}

void RooflineView::setLowPrecisionRun(bool low) {
    low_precision_->setChecked(low); // rebuilds when it changes
}

void RooflineView::setDevice(const QString& device) {
    PeakOptions options = peaks_->measureOptions();
    options.device = device.toStdString();
    peaks_->setMeasureOptions(options);
}

void RooflineView::setRunConfig(const ExperimentConfig& config) {
    setDevice(QString::fromStdString(config.device));
    setLowPrecisionRun(config.precision != "fp32");
}

void RooflineView::rebuild() {
    const std::vector<KernelCost> costs =
        from_op_table_ ? costsFromOpTable(op_table_, low_precision_->isChecked()) : costs_;
    roofline_ = Roofline();
    model_->clear();
    if (!peaks_->hasPeaks()) {
        chart_->clear(tr("Enter the machine's peaks above (fp32 GFLOP/s and memory GB/s),\nor "
                         "press Measure."));
        notes_->clear();
        return;
    }
    if (costs.empty()) {
        chart_->clear(tr("No operators to place yet."));
        notes_->clear();
        return;
    }
    try {
        roofline_ = buildRoofline(peaks_->peaks(), costs);
    } catch (const std::exception& e) {
        chart_->clear(QString::fromUtf8(e.what()));
        return;
    }
    roofline_.notes.insert(roofline_.notes.end(), source_notes_.begin(), source_notes_.end());
    const auto above = std::count_if(roofline_.points.begin(), roofline_.points.end(),
                                     [](const RooflinePoint& p) { return p.efficiency > 1; });
    if (above > 0)
        roofline_.notes.push_back(
            tr("%1 operator(s) run above their roof: their data stays in cache, which the "
               "memory-bandwidth roof does not model (or the peaks are low)")
                .arg(above)
                .toStdString());
    model_->setRoofline(roofline_);
    chart_->setRoofline(roofline_);
    QStringList notes;
    for (const std::string& note : roofline_.notes)
        notes << QString::fromStdString(note);
    notes_->setText(notes.join(QStringLiteral("; ")));
    table_->resizeColumnsToContents();
    table_->setColumnWidth(model_->column(roofline_column::kName),
                           qMin(table_->columnWidth(model_->column(roofline_column::kName)), 260));
}

void RooflineView::selectTableRow(int point) {
    const QModelIndex index = proxy_->mapFromSource(model_->index(point, 0));
    if (!index.isValid()) return;
    table_->selectRow(index.row());
    table_->scrollTo(index);
}

void RooflineView::onTableSelection() {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    chart_->setSelectedPoint(rows.isEmpty() ? -1 : rows.front().data(RowRole).toInt());
}

bool RooflineView::exportPng(const QString& path, QString* error) {
    // As `trainscope-cli roofline --out` writes it.
    if (chart_->savePng(path, kChartWidth, kChartHeight, kChartPixelRatio)) return true;
    if (error) *error = tr("Cannot write %1.").arg(path);
    return false;
}

bool RooflineView::exportCsv(const QString& path, QString* error) {
    if (roofline_.points.empty()) {
        if (error) *error = tr("There is no roofline to export yet.");
        return false;
    }
    return writeTextFile(path, QString::fromStdString(rooflineCsv(roofline_)), error);
}

void RooflineView::importInteractive() {
    const QString path = chooseFileInteractive(this, settings_, tr("Import an Nsight Compute CSV"),
                                               tr("CSV files (*.csv);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !importNcu(path, &error))
        warnFailure(this, tr("Import Nsight CSV"), error);
}

void RooflineView::exportPngInteractive() {
    exportFileInteractive(
        this, settings_, tr("Export the roofline as PNG"), QStringLiteral("roofline.png"),
        tr("PNG images (*.png)"),
        [this](const QString& path, QString* error) { return exportPng(path, error); });
}

void RooflineView::exportCsvInteractive() {
    exportFileInteractive(
        this, settings_, tr("Export the roofline as CSV"), QStringLiteral("roofline.csv"),
        tr("CSV files (*.csv)"),
        [this](const QString& path, QString* error) { return exportCsv(path, error); });
}

} // namespace ts::gui
