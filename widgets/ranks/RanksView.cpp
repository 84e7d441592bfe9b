#include "ranks/RanksView.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "analysis/RankSpreads.h"
#include "common/DocumentSelection.h"
#include "common/Format.h"
#include "common/SortFilterProxy.h"
#include "common/SpecTableModel.h"
#include "common/TableSetup.h"
#include "ranks/DistributedModels.h"
#include "ranks/RankBarsChart.h"
#include "ranks/RankHeatMap.h"
#include "report/DistributedReport.h"
#include "sources/OpenDocument.h"

namespace ts::gui {
namespace {

constexpr const char* kAverage = "all"; // DistributedView's label of the average step

QString rankLabel(const RankRow& row) {
    return row.straggler ? QObject::tr("rank %1 (straggler)").arg(row.rank)
                         : QObject::tr("rank %1").arg(row.rank);
}

RankBars overlapBars(const std::vector<RankRow>& rows, const QString& step) {
    RankBars bars;
    bars.title = QObject::tr("Computation / communication, %1").arg(step);
    bars.parts = {QObject::tr("Computation"), QObject::tr("Overlapping"),
                  QObject::tr("Communication"), QObject::tr("Other")};
    for (const RankRow& r : rows) {
        bars.ranks << rankLabel(r);
        bars.ms.push_back({r.step.computation_ns / 1e6, r.step.overlapping_ns / 1e6,
                           r.step.communication_ns / 1e6, r.step.other_ns / 1e6});
    }
    return bars;
}

RankBars waitBars(const std::vector<RankRow>& rows, const QString& step) {
    RankBars bars;
    bars.title = QObject::tr("Collectives: data transfer / synchronizing, %1").arg(step);
    bars.parts = {QObject::tr("Data transfer"), QObject::tr("Synchronizing")};
    for (const RankRow& r : rows) {
        bars.ranks << rankLabel(r);
        bars.ms.push_back({r.step.data_transfer_ns / 1e6, r.step.synchronizing_ns / 1e6});
    }
    return bars;
}

} // namespace

RanksView::RanksView(QWidget* parent)
    : QWidget(parent), ranks_(new RankTableModel(this)), ops_(new CommOpModel(this)),
      rank_proxy_(new SortFilterProxy(this)), rank_table_(new QTableView),
      op_table_(new QTableView), overlap_(new RankBarsChart), wait_(new RankBarsChart),
      bars_(new QSplitter(Qt::Horizontal)), heat_(new RankHeatMap), metric_box_(new QComboBox),
      spreads_(new SpecTableModel(this)), spread_table_(new QTableView), span_box_(new QComboBox),
      step_box_(new QComboBox), rank_box_(new QComboBox), summary_(new QLabel),
      stragglers_(new QLabel), frame_(this) {
    setObjectName(QStringLiteral("distributedView"));
    setUpTable(rank_table_, rank_proxy_, ranks_);
    setUpTable(spread_table_, new SortFilterProxy(this), spreads_);
    for (const StepMetric& metric : stepMetrics())
        metric_box_->addItem(tr(metric.label));
    setUpTable(op_table_, new SortFilterProxy(this), ops_);
    for (QLabel* label : {summary_, stragglers_})
        label->setWordWrap(true);
    stragglers_->setTextFormat(Qt::PlainText);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Span")));
    bar->addWidget(span_box_);
    bar->addWidget(new QLabel(tr("Step")));
    bar->addWidget(step_box_);
    bar->addWidget(summary_, 1);
    auto* bars = static_cast<QSplitter*>(bars_);
    bars->addWidget(overlap_);
    bars->addWidget(wait_);
    bars->setSizes({600, 400});
    auto* heat = new QWidget;
    auto* heat_layout = new QVBoxLayout(heat);
    heat_layout->setContentsMargins(0, 0, 0, 0);
    auto* heat_bar = new QHBoxLayout;
    heat_bar->addWidget(new QLabel(tr("Heat map of")));
    heat_bar->addWidget(metric_box_);
    heat_bar->addWidget(new QLabel(tr("click: pick the rank and step; double-click: open that "
                                      "rank's trace at that step")),
                        1);
    heat_layout->addLayout(heat_bar);
    heat_layout->addWidget(heat_, 1);
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(heat);
    charts->addWidget(bars_);
    charts->setSizes({500, 500});
    auto* ops = new QWidget;
    auto* ops_layout = new QVBoxLayout(ops);
    ops_layout->setContentsMargins(0, 0, 0, 0);
    auto* ops_bar = new QHBoxLayout;
    ops_bar->addWidget(new QLabel(tr("Collectives of")));
    ops_bar->addWidget(rank_box_);
    ops_bar->addStretch(1);
    ops_layout->addLayout(ops_bar);
    ops_layout->addWidget(op_table_, 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(charts);
    split->addWidget(spread_table_);
    split->addWidget(rank_table_);
    split->addWidget(ops);
    split->setSizes({380, 150, 200, 170});
    QVBoxLayout* body = frame_.bodyLayout();
    body->addLayout(bar);
    body->addWidget(stragglers_);
    body->addWidget(split, 1);

    connect(span_box_, &QComboBox::currentIndexChanged, this, [this] { showSpan(); });
    connect(step_box_, &QComboBox::currentIndexChanged, this, [this] { showStep(); });
    connect(rank_box_, &QComboBox::currentIndexChanged, this, [this] { showRankOps(); });
    connect(metric_box_, &QComboBox::currentIndexChanged, this, [this] { showHeatMap(); });
    connect(heat_, &RankHeatMap::cellClicked, this, &RanksView::pickCell);
    connect(heat_, &RankHeatMap::cellActivated, this, &RanksView::openCell);
    // A rank's row, double-clicked: its trace, at the step shown (or whole).
    connect(rank_table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        openRankRow(rank_proxy_->mapToSource(index).row());
    });
    clear();
}

void RanksView::clear() {
    setSpans(nullptr, QString());
}

void RanksView::setSpans(std::shared_ptr<const std::vector<DistributedView>> spans,
                         const QString& description, const QString& error) {
    spans_ = std::move(spans);
    error_ = error;
    if (spans_ && spans_->empty()) spans_.reset();
    frame_.show(description,
                spans_ ? QString()
                : !error.isEmpty()
                    ? tr("These traces form no distributed view. %1").arg(error)
                    : tr("Not a distributed run: open a folder of per-rank torch.profiler traces "
                         "(File ▸ Open Run or Trace Folder) to compare the ranks. NCCL, Gloo on "
                         "GPU and Gloo on CPU are understood."));
    const QSignalBlocker block(span_box_);
    span_box_->clear();
    if (spans_)
        for (const DistributedView& view : *spans_)
            span_box_->addItem(tr("%1 of %2").arg(view.span).arg(view.span_count));
    span_box_->setEnabled(span_box_->count() > 1);
    showSpan();
}

const DistributedView* RanksView::span() const {
    const int s = span_box_->currentIndex();
    if (!spans_ || s < 0 || s >= int(spans_->size())) return nullptr;
    return &(*spans_)[size_t(s)];
}

int RanksView::spanCount() const {
    return spans_ ? int(spans_->size()) : 0;
}

void RanksView::selectSpan(int index) {
    span_box_->setCurrentIndex(index);
}

void RanksView::selectStep(int index) {
    step_box_->setCurrentIndex(index);
}

void RanksView::selectRank(int index) {
    rank_box_->setCurrentIndex(index);
}

void RanksView::followSelection(DocumentSelection* selection) {
    selection_ = selection;
    connect(selection, &DocumentSelection::changed, this,
            [this](const Selection& s, unsigned what, const QObject* origin) {
                if (origin != this && (what & (RangeChanged | RankChanged))) applySelection(s);
            });
    connect(step_box_, &QComboBox::activated, this, &RanksView::pickStep);
    connect(rank_box_, &QComboBox::activated, this, &RanksView::pickRank);
}

void RanksView::applySelection(const Selection& s) {
    const DistributedView* view = span();
    if (!view) return;
    const int step = s.step ? step_box_->findData(QString::number(*s.step)) : 0;
    if (step >= 0) step_box_->setCurrentIndex(step);
    for (size_t r = 0; s.rank && r < view->ranks.size(); ++r)
        if (view->ranks[r].rank == *s.rank) rank_box_->setCurrentIndex(int(r));
}

// A step of the lowest rank's trace: its span there.
void RanksView::pickStep() {
    bool numbered = false;
    const qlonglong number = step_box_->currentData().toString().toLongLong(&numbered);
    if (!selection_ || !trace_ || !numbered) return;
    for (const StepMark& mark : trace_->steps)
        if (mark.step == number) selection_->selectStep(number, mark.start_ns, mark.end_ns, this);
}

void RanksView::pickRank() {
    const DistributedView* view = span();
    const int r = rank_box_->currentIndex();
    if (selection_ && view && r >= 0 && r < int(view->ranks.size()))
        selection_->selectRank(int(view->ranks[size_t(r)].rank), this);
}

QStringList RanksView::stepLabels() const {
    QStringList labels;
    for (int i = 0; i < step_box_->count(); ++i)
        labels << step_box_->itemText(i);
    return labels;
}

void RanksView::showSpan() {
    const DistributedView* view = span();
    {
        const QSignalBlocker block_steps(step_box_);
        const QSignalBlocker block_ranks(rank_box_);
        step_box_->clear();
        rank_box_->clear();
        if (view) {
            step_box_->addItem(tr("Average"), QString::fromLatin1(kAverage));
            // The steps every rank has (a rank's Overview may leave out a trailing
            // step), counted once per rank: 1,024 ranks of 1,000 steps.
            std::unordered_map<std::string, size_t> ranks_with;
            for (const RankView& rank : view->ranks)
                for (const DistributedStep& s : rank.steps)
                    ++ranks_with[s.label];
            for (const DistributedStep& step : view->ranks.front().steps)
                if (ranks_with[step.label] == view->ranks.size())
                    step_box_->addItem(QString::fromStdString(step.label),
                                       QString::fromStdString(step.label));
            for (const RankView& rank : view->ranks)
                rank_box_->addItem(
                    tr("rank %1 (%2)").arg(rank.rank).arg(QString::fromStdString(rank.worker)));
        }
    }
    if (!view) {
        ranks_->clear();
        ops_->clear();
        summary_->clear();
        stragglers_->clear();
        return;
    }
    QString summary = tr("%n rank(s)", nullptr, int(view->ranks.size()));
    const RankView& first = view->ranks.front();
    if (!first.library.empty()) summary += tr(", %1").arg(QString::fromStdString(first.library));
    summary += tr("; computation imbalance %1, step times %2 apart")
                   .arg(format::percent(view->computation_imbalance),
                        format::durationNs(view->step_time_spread_ns));
    summary_->setText(summary);
    QStringList lines;
    for (const Straggler& s : view->stragglers)
        lines << tr("Straggler: %1").arg(QString::fromStdString(s.message));
    if (lines.isEmpty()) lines << QString::fromStdString(view->no_straggler) + QLatin1Char('.');
    if (!view->arrivals.verdict.empty())
        lines << tr("Collectives: %1.").arg(QString::fromStdString(view->arrivals.verdict));
    for (const std::string& why : view->left_out)
        lines << tr("Left out: %1").arg(QString::fromStdString(why));
    for (const std::string& note : view->notes)
        lines << tr("Note: %1").arg(QString::fromStdString(note));
    if (!error_.isEmpty()) lines << tr("Left out: %1").arg(error_);
    stragglers_->setText(lines.join(QLatin1Char('\n')));
    if (selection_) {
        const QSignalBlocker block_steps(step_box_);
        const QSignalBlocker block_ranks(rank_box_);
        applySelection(selection_->current());
    }
    spreads_->setSpec(spreadTable(view->spreads));
    spread_table_->resizeColumnsToContents();
    bars_->setVisible(barsShown());
    showHeatMap();
    showStep();
    showRankOps();
}

bool RanksView::barsShown() const {
    const DistributedView* view = span();
    return view && view->ranks.size() <= kAllRankRowsUpTo;
}

void RanksView::selectMetric(int index) {
    metric_box_->setCurrentIndex(index);
}

// Every rank's steps, in the columns of the rank with the most steps (by
// label: a rank may lack a trailing step).
void RanksView::showHeatMap() {
    const DistributedView* view = span();
    const int m = metric_box_->currentIndex();
    HeatMapData data;
    if (view && m >= 0) {
        const StepMetric& metric = stepMetrics()[size_t(m)];
        data.metric = tr(metric.label);
        const RankView* longest = &view->ranks.front();
        for (const RankView& r : view->ranks)
            if (r.steps.size() > longest->steps.size()) longest = &r;
        std::map<std::string, int> column_of;
        for (const DistributedStep& step : longest->steps) {
            column_of.emplace(step.label, int(data.steps.size()));
            data.steps << QString::fromStdString(step.label);
        }
        data.ns.assign(view->ranks.size() * size_t(data.steps.size()), -1.0);
        for (size_t r = 0; r < view->ranks.size(); ++r) {
            data.ranks.push_back(view->ranks[r].rank);
            for (const DistributedStep& step : view->ranks[r].steps)
                if (auto it = column_of.find(step.label); it != column_of.end())
                    data.ns[r * size_t(data.steps.size()) + size_t(it->second)] =
                        double(metric.value(step));
        }
    }
    heat_->setData(std::move(data));
}

const DistributedStep* RanksView::cellStep(int row, int column) const {
    const DistributedView* view = span();
    const HeatMapData& data = heat_->data();
    if (!view || row < 0 || row >= int(view->ranks.size()) || column < 0 ||
        column >= data.steps.size())
        return nullptr;
    const std::string label = data.steps[column].toStdString();
    for (const DistributedStep& step : view->ranks[size_t(row)].steps)
        if (step.label == label) return &step;
    return nullptr;
}

void RanksView::pickCell(int row, int column) {
    rank_box_->setCurrentIndex(row);
    pickRank();
    const int step = step_box_->findData(heat_->data().steps.value(column));
    if (step < 0) return;
    step_box_->setCurrentIndex(step);
    pickStep();
}

void RanksView::openRankRow(int row) {
    const DistributedView* view = span();
    if (!view || row < 0 || row >= int(view->ranks.size())) return;
    const int column = heat_->data().steps.indexOf(step_box_->currentData().toString());
    if (column >= 0) {
        openCell(row, column);
        return;
    }
    emit openRequested(QString::fromStdString(view->ranks[size_t(row)].path));
}

void RanksView::openCell(int row, int column) {
    const DistributedView* view = span();
    const DistributedStep* step = cellStep(row, column);
    if (!view || !step) return;
    const RankView& rank = view->ranks[size_t(row)];
    if (selection_) {
        Selection at;
        at.range = Selection::Range{step->start_ns, step->end_ns};
        bool numbered = false;
        const qlonglong number = QString::fromStdString(step->label).toLongLong(&numbered);
        if (numbered) at.step = number;
        selection_->presetFor(QString::fromStdString(sources::documentPath(rank.path)), at);
    }
    emit openRequested(QString::fromStdString(rank.path));
}

void RanksView::showStep() {
    const DistributedView* view = span();
    if (!view) return;
    const std::string label = step_box_->currentData().toString().toStdString();
    const std::vector<RankRow> rows = rankRows(*view, label.empty() ? kAverage : label);
    const QString step = label == kAverage || label.empty()
                             ? tr("average step")
                             : tr("step %1").arg(QString::fromStdString(label));
    overlap_->setBars(overlapBars(rows, step));
    wait_->setBars(waitBars(rows, step));
    ranks_->setRows(rows);
    rank_table_->resizeColumnsToContents();
}

void RanksView::showRankOps() {
    const DistributedView* view = span();
    const int r = rank_box_->currentIndex();
    ops_->setRows(view && r >= 0 && r < int(view->ranks.size()) ? view->ranks[size_t(r)].ops
                                                                : std::vector<CommOpRow>{});
    op_table_->resizeColumnsToContents();
}

QString RanksView::summaryText() const {
    return summary_->text();
}

QString RanksView::stragglerText() const {
    return stragglers_->text();
}

QString RanksView::messageText() const {
    return frame_.messageText();
}

} // namespace ts::gui
