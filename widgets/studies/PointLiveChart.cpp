#include "studies/PointLiveChart.h"

#include <QVBoxLayout>

#include "live/LiveCharts.h"

namespace ts::gui {

PointLiveChart::PointLiveChart(QWidget* parent)
    : QWidget(parent), throughput_(new ThroughputChart(history_)),
      step_time_(new StepTimeChart(history_)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(throughput_);
    layout->addWidget(step_time_);
}

void PointLiveChart::reset() {
    history_.clear();
    for (HistoryChart* chart : {throughput_, step_time_}) {
        chart->reset();
        chart->replot(QCustomPlot::rpQueuedReplot);
    }
}

void PointLiveChart::append(const LiveUpdate& update) {
    if (update.started) {
        reset();
        history_.info = *update.started;
    }
    const size_t first_step = history_.steps.size();
    const size_t first_epoch = history_.epochs.size();
    history_.steps.insert(history_.steps.end(), update.steps.begin(), update.steps.end());
    history_.epochs.insert(history_.epochs.end(), update.epochs.begin(), update.epochs.end());
    for (HistoryChart* chart : {throughput_, step_time_}) {
        chart->append(first_step, first_epoch);
        chart->updateRanges();
        chart->replot(QCustomPlot::rpRefreshHint);
    }
    ++replots_;
}

} // namespace ts::gui
