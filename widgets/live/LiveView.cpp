#include "live/LiveView.h"

#include <QElapsedTimer>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include "live/LiveCharts.h"
#include "live/RanksChart.h"
#include "live/RunInfoPanel.h"
#include "report/RunDirectory.h"
#include "report/RunFollower.h"
#include "report/RunMessages.h"

namespace ts::gui {

LiveView::LiveView(QWidget* parent)
    : QWidget(parent), info_(new RunInfoPanel), follow_(new QToolButton) {
    auto* throughput = new ThroughputChart(history_);
    auto* step_time = new StepTimeChart(history_);
    auto* memory = new MemoryChart(history_);
    auto* loss = new LossChart(history_);
    auto* epochs = new EpochChart(history_);
    ranks_ = new RanksChart(history_);
    memory_categories_ = new MemoryCategoryChart(history_);
    step_charts_ = {throughput, step_time, memory, loss, ranks_, memory_categories_};
    charts_ = {throughput, step_time, memory, loss, epochs, ranks_, memory_categories_};

    follow_->setText(tr("Follow latest"));
    follow_->setCheckable(true);
    follow_->setChecked(true);
    follow_->setShortcut(Qt::Key_End);
    follow_->setToolTip(
        tr("Scroll with the newest steps (End). Zooming or panning a chart stops it."));
    follow_->setObjectName(QStringLiteral("follow"));
    connect(follow_, &QToolButton::toggled, this, &LiveView::setFollowing);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Wheel zooms, drag pans, hover shows values.")));
    bar->addStretch(1);
    bar->addWidget(follow_);

    auto* grid = new QGridLayout;
    grid_ = grid;
    grid->setSpacing(4);
    grid->addWidget(throughput, 0, 0);
    grid->addWidget(step_time, 0, 1);
    grid->addWidget(memory, 1, 0);
    grid->addWidget(loss, 1, 1);
    // The epochs chart shares its cell: one bar per epoch reads in half the height.
    auto* lower_left = new QVBoxLayout;
    lower_left->setSpacing(4);
    lower_left->addWidget(memory_categories_, 1);
    lower_left->addWidget(epochs, 1);
    grid->addLayout(lower_left, 2, 0);
    grid->addWidget(info_, 2, 1);
    grid->addWidget(ranks_, 3, 0, 1, 2); // shown while the run has ranks
    for (int r = 0; r < 3; ++r)
        grid->setRowStretch(r, 1);
    ranks_->hide();
    for (int c = 0; c < 2; ++c)
        grid->setColumnStretch(c, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addLayout(grid, 1);

    for (HistoryChart* chart : charts_)
        connect(chart, &LiveChart::userNavigated, this, [this] { setFollowing(false); });
    for (HistoryChart* chart : step_charts_)
        chart->setFollowWindow(1000);
    linkKeyAxes();
}

// Panning or zooming one step chart moves the others, so a moment in the run
// lines up across throughput, phases, memory and loss.
void LiveView::linkKeyAxes() {
    for (HistoryChart* source : step_charts_) {
        connect(source->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
                [this, source](const QCPRange& range) {
                    if (syncing_) return;
                    syncing_ = true;
                    for (HistoryChart* other : step_charts_) {
                        if (other == source) continue;
                        other->xAxis->setRange(range);
                        other->fitValueAxes();
                        other->replot(QCustomPlot::rpQueuedReplot);
                    }
                    syncing_ = false;
                });
    }
}

bool LiveView::following() const {
    return follow_->isChecked();
}

void LiveView::setFollowing(bool following) {
    if (follow_->isChecked() != following) {
        follow_->setChecked(following); // toggled() calls back here with the same value
        return;
    }
    for (HistoryChart* chart : charts_)
        chart->setFollowing(following);
    if (following) replotAll();
}

// The ranks' chart takes a row of its own only for a data-parallel job.
void LiveView::showRanks(bool shown) {
    if (ranks_->isHidden() != shown) return;
    ranks_->setVisible(shown);
    grid_->setRowStretch(3, shown ? 1 : 0);
}

void LiveView::clear() {
    history_.clear();
    for (HistoryChart* chart : charts_)
        chart->reset();
    showRanks(false);
    info_->clear();
    setFollowing(true);
}

void LiveView::beginRun(const RunLaunch& launch) {
    clear();
    info_->setTitle(
        tr("%1 — starting in %2").arg(QString::fromStdString(launch.config.name), launch.runDir));
    replotAll();
}

void LiveView::append(const LiveUpdate& update) {
    QElapsedTimer timer;
    timer.start();
    const size_t first_step = history_.steps.size();
    const size_t first_epoch = history_.epochs.size();
    if (update.started) {
        history_.info = *update.started;
        info_->setInfo(*update.started);
        info_->setTitle(QString::fromStdString(update.started->config.name));
    }
    history_.steps.insert(history_.steps.end(), update.steps.begin(), update.steps.end());
    history_.epochs.insert(history_.epochs.end(), update.epochs.begin(), update.epochs.end());
    for (const auto& [rank, step] : update.rank_steps)
        history_.rank_steps[rank].push_back(step);
    showRanks(!history_.rank_steps.empty());
    for (HistoryChart* chart : charts_)
        chart->append(first_step, first_epoch);
    info_->addMessages(update.messages);
    if (update.finished) info_->setSummary(*update.finished);
    replotAll();
    frames_.record(double(timer.nsecsElapsed()) / 1e6);
}

void LiveView::finishRun(const RunOutcome& outcome) {
    info_->setSummary(outcome.summary);
    const QString name =
        history_.info ? QString::fromStdString(history_.info->config.name) : tr("Run");
    QString title = tr("%1 — %2").arg(name, QString::fromLatin1(toString(outcome.summary.status)));
    if (!outcome.runDir.isEmpty()) title += tr(", saved in %1").arg(outcome.runDir);
    info_->setTitle(title);
}

void LiveView::showRun(const RunRecord& record) {
    clear();
    LiveUpdate all;
    all.started = record.info;
    all.steps = record.steps;
    all.epochs = record.epochs;
    all.finished = record.summary;
    for (const auto& [rank, steps] : loadRankSteps(record.dir))
        for (const StepRecord& step : steps)
            all.rank_steps.emplace_back(rank, step);
    // What the engine said (an interrupted and continued run says so).
    for (const RunMessage& message : loadRunMessages(record.dir))
        all.messages.push_back({message.level, message.text});
    append(all);
    info_->setTitle(tr("%1 — %2").arg(QString::fromStdString(record.info.config.name),
                                      QString::fromStdString(record.dir.string())));
}

void LiveView::replotAll() {
    syncing_ = true; // ranges set here are already consistent across charts
    for (HistoryChart* chart : charts_) {
        chart->updateRanges();
        chart->replot(QCustomPlot::rpRefreshHint);
    }
    syncing_ = false;
    ++replots_;
}

} // namespace ts::gui
