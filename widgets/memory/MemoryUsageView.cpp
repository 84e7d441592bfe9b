#include "memory/MemoryUsageView.h"

#include <algorithm>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "common/CsvExport.h"
#include "common/DocumentSelection.h"
#include "common/ExportFile.h"
#include "common/SortFilterProxy.h"
#include "common/TableSetup.h"
#include "memory/MemoryCurveChart.h"
#include "memory/MemoryTableModels.h"
#include "report/MemoryTables.h"

namespace ts::gui {
namespace {

int64_t traceEndNs(const Trace& trace) {
    int64_t end = 0;
    for (const TraceEvent& e : trace.events)
        end = std::max(end, e.end_ns());
    return end;
}

// The plugin opens on the first GPU, else the CPU.
int defaultDevice(const MemoryView& view) {
    for (size_t d = 0; d < view.devices.size(); ++d)
        if (view.devices[d].name.rfind("GPU", 0) == 0) return int(d);
    return 0;
}

QString msText(int64_t ns) {
    return QString::number(double(ns) / 1e6, 'f', 3);
}

} // namespace

MemoryUsageView::MemoryUsageView(AppSettings* settings, QWidget* parent)
    : QWidget(parent), settings_(settings), chart_(new MemoryCurveChart),
      allocations_(new MemoryAllocationModel(this)), operators_(new MemoryOperatorModel(this)),
      allocation_proxy_(new SortFilterProxy(this)), operator_proxy_(new SortFilterProxy(this)),
      allocation_table_(new QTableView), operator_table_(new QTableView), tables_(new QTabWidget),
      device_(new QComboBox), filter_(new QLineEdit),
      whole_trace_(new QPushButton(tr("Whole Trace"))), export_(new QPushButton(tr("Export CSV…"))),
      range_label_(new QLabel), note_(new QLabel), frame_(this) {
    setObjectName(QStringLiteral("memoryView"));
    TableOptions by_size;
    by_size.sortColumn = operators_->column(memory_column::kSizeIncrease);
    by_size.sortOrder = Qt::DescendingOrder;
    setUpTable(operator_table_, operator_proxy_, operators_, by_size);
    setUpTable(allocation_table_, allocation_proxy_, allocations_); // the plugin's order
    tables_->addTab(operator_table_, tr("Operators"));
    tables_->addTab(allocation_table_, tr("Allocations"));
    filter_->setPlaceholderText(tr("Filter by operator"));
    filter_->setClearButtonEnabled(true);
    whole_trace_->setToolTip(tr("Show the tables for the whole trace (or double-click the chart)"));
    note_->setWordWrap(true);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Device")));
    bar->addWidget(device_);
    bar->addWidget(range_label_, 1);
    bar->addWidget(whole_trace_);
    auto* table_bar = new QHBoxLayout;
    table_bar->addWidget(filter_, 1);
    table_bar->addWidget(export_);
    auto* lower = new QWidget;
    auto* lower_layout = new QVBoxLayout(lower);
    lower_layout->setContentsMargins(0, 0, 0, 0);
    lower_layout->addLayout(table_bar);
    lower_layout->addWidget(tables_, 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(chart_);
    split->addWidget(lower);
    split->setSizes({380, 420});
    QVBoxLayout* body = frame_.bodyLayout();
    body->addLayout(bar);
    body->addWidget(note_);
    body->addWidget(split, 1);

    connect(device_, &QComboBox::currentIndexChanged, this, [this] { showDevice(); });
    connect(chart_, &MemoryCurveChart::rangeSelected, this, [this](qint64 start, qint64 end) {
        setRange(MemoryTimeRange{start, end});
        if (selection_) selection_->selectRange({start, end, -1}, this);
    });
    const auto whole = [this] {
        setRange(std::nullopt);
        if (selection_) selection_->clearRange(this);
    };
    connect(chart_, &MemoryCurveChart::selectionCleared, this, whole);
    connect(whole_trace_, &QPushButton::clicked, this, whole);
    connect(filter_, &QLineEdit::textChanged, this, &MemoryUsageView::setNameFilter);
    connect(export_, &QPushButton::clicked, this, &MemoryUsageView::exportInteractive);
    clear();
}

void MemoryUsageView::clear() {
    setTrace(nullptr, nullptr, nullptr, QString());
}

void MemoryUsageView::showPending(const QString& message) {
    clear();
    frame_.show(QString(), message);
}

void MemoryUsageView::setTrace(std::shared_ptr<const Trace> trace,
                               std::shared_ptr<const GpuTraceAnalysis> analysis,
                               std::shared_ptr<const MemoryView> memory,
                               const QString& description) {
    trace_ = std::move(trace);
    analysis_ = std::move(analysis);
    if (trace_ && !analysis_)
        analysis_ = std::make_shared<const GpuTraceAnalysis>(analyzeGpuTrace(*trace_));
    view_ = std::move(memory);
    if (!view_)
        view_ = std::make_shared<const MemoryView>(
            trace_ ? computeMemoryView(*trace_, analysis_->tree) : MemoryView{});
    range_.reset();
    if (const Selection* s = selection_ ? &selection_->current() : nullptr; s && s->range)
        range_ = MemoryTimeRange{s->range->start_ns, s->range->end_ns};
    span_ns_ = trace_ ? traceEndNs(*trace_) : 0;
    frame_.show(description, !view_->empty() ? QString()
                             : !trace_
                                 ? tr("No trace yet: open a Kineto (torch.profiler) trace recorded "
                                      "with profile_memory=True, or a profiled run, to see its "
                                      "memory.")
                                 : tr("This trace has no memory records: record it with "
                                      "torch.profiler's profile_memory=True (or profile a run in "
                                      "Trainscope, which samples CPU memory)."));
    const bool net = std::any_of(view_->devices.begin(), view_->devices.end(),
                                 [](const DeviceMemoryView& d) { return d.net_since_start; });
    note_->setText(view_->own_samples
                       ? tr("Trainscope's memory samples carry no addresses: each allocation is "
                            "listed without its release.")
                   : net ? tr("This trace's memory events carry no device totals and no "
                              "addresses (PyTorch before 1.10): the curve is the net allocated "
                              "since the trace began, and allocations cannot be matched with "
                              "their releases.")
                         : QString());
    note_->setVisible(!note_->text().isEmpty());
    const QSignalBlocker block(device_);
    device_->clear();
    for (const DeviceMemoryView& d : view_->devices)
        device_->addItem(QString::fromStdString(d.name));
    device_->setCurrentIndex(view_->empty() ? -1 : defaultDevice(*view_));
    showDevice();
}

int MemoryUsageView::deviceCount() const {
    return int(view_->devices.size());
}

int MemoryUsageView::deviceIndex() const {
    const int d = device_->currentIndex();
    return d >= 0 && d < deviceCount() ? d : -1;
}

QString MemoryUsageView::currentDevice() const {
    return device_->currentText();
}

bool MemoryUsageView::selectDevice(const QString& name) {
    const int d = device_->findText(name, Qt::MatchFixedString);
    if (d < 0) return false;
    device_->setCurrentIndex(d);
    return true;
}

void MemoryUsageView::showDevice() {
    const int d = deviceIndex();
    if (d < 0) {
        chart_->clearContent();
        allocations_->clear();
        operators_->clear();
        range_label_->clear();
        return;
    }
    const DeviceMemoryView& device = view_->devices[size_t(d)];
    MemoryCurveContent content;
    const QString name = QString::fromStdString(device.name);
    content.title = device.curve.empty() ? tr("%1: no memory curve").arg(name)
                    : device.net_since_start
                        ? tr("%1 memory: net allocated since the trace began (its memory events "
                             "carry no device totals)")
                              .arg(name)
                        : tr("%1 memory").arg(name);
    content.curve = device.curve;
    content.net = device.net_since_start;
    content.peak = device.peak_allocated;
    content.peak_t_ns = device.peak_t_ns;
    content.span_ns = span_ns_;
    if (trace_) content.steps = trace_->steps;
    chart_->setContent(std::move(content));
    chart_->setSelection(range_);
    fillTables();
}

void MemoryUsageView::followSelection(DocumentSelection* selection) {
    selection_ = selection;
    connect(selection, &DocumentSelection::changed, this,
            [this](const Selection& s, unsigned what, const QObject* origin) {
                if (origin == this || !(what & RangeChanged)) return;
                setRange(s.range ? std::optional<MemoryTimeRange>(
                                       MemoryTimeRange{s.range->start_ns, s.range->end_ns})
                                 : std::nullopt);
            });
}

void MemoryUsageView::setRange(const std::optional<MemoryTimeRange>& range) {
    range_ = range;
    if (chart_->selection().has_value() != range.has_value() ||
        (range && (chart_->selection()->start_ns != range->start_ns ||
                   chart_->selection()->end_ns != range->end_ns)))
        chart_->setSelection(range);
    fillTables();
}

void MemoryUsageView::fillTables() {
    const int d = deviceIndex();
    if (d < 0 || !trace_) return;
    if (!range_) {
        operators_->setRows(view_->devices[size_t(d)].operators);
        allocations_->setRows(view_->devices[size_t(d)].allocations);
    } else {
        // Only the tables depend on the range; the records are attributed again, which costs
        // about as much as opening the view (milliseconds on the plugin's samples).
        MemoryView ranged = computeMemoryView(*trace_, analysis_->tree, *range_);
        const std::string& name = view_->devices[size_t(d)].name;
        auto it = std::find_if(ranged.devices.begin(), ranged.devices.end(),
                               [&](const DeviceMemoryView& v) { return v.name == name; });
        operators_->setRows(it != ranged.devices.end() ? std::move(it->operators)
                                                       : std::vector<MemoryOpRow>{});
        allocations_->setRows(it != ranged.devices.end() ? std::move(it->allocations)
                                                         : std::vector<MemoryAllocation>{});
    }
    range_label_->setText(rangeText());
    whole_trace_->setEnabled(range_.has_value());
    for (QTableView* table : {operator_table_, allocation_table_}) {
        table->resizeColumnsToContents();
        table->setColumnWidth(0, qMin(table->columnWidth(0), 360));
    }
}

QString MemoryUsageView::rangeText() const {
    const QString counts = tr("%n operator(s), ", nullptr, operators_->rowCount()) +
                           tr("%n allocation(s)", nullptr, allocations_->rowCount());
    if (!range_)
        return tr("Whole trace: %1. Drag across the chart to narrow the tables.").arg(counts);
    return tr("%1 – %2 ms: %3").arg(msText(range_->start_ns), msText(range_->end_ns), counts);
}

void MemoryUsageView::showTable(Table table) {
    tables_->setCurrentIndex(int(table));
}

void MemoryUsageView::setNameFilter(const QString& text) {
    if (filter_->text() != text) filter_->setText(text);
    operator_proxy_->setTextFilter(operators_->column(memory_column::kOperator), text);
    allocation_proxy_->setTextFilter(allocations_->column(memory_column::kOperator), text);
}

QString MemoryUsageView::messageText() const {
    return frame_.messageText();
}

QString MemoryUsageView::noteText() const {
    return note_->isVisibleTo(this) ? note_->text() : QString();
}

bool MemoryUsageView::exportCsv(const QString& path, QString* error) const {
    const SortFilterProxy* shown =
        tables_->currentIndex() == Allocations ? allocation_proxy_ : operator_proxy_;
    return writeTextFile(path, modelToCsv(*shown), error);
}

void MemoryUsageView::exportInteractive() {
    if (!settings_) return;
    const QString name = tables_->currentIndex() == Allocations
                             ? QStringLiteral("memory_allocations.csv")
                             : QStringLiteral("memory_operators.csv");
    exportFileInteractive(
        this, *settings_, tr("Export memory table"), name, tr("CSV files (*.csv)"),
        [this](const QString& path, QString* error) { return exportCsv(path, error); });
}

} // namespace ts::gui
