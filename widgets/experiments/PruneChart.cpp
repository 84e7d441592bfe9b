#include "experiments/PruneChart.h"

#include <algorithm>

#include "common/ChartStyle.h"
#include "common/ThemePalette.h"
#include "experiments/PruneLayerModel.h"

namespace ts::gui {
namespace {

const QColor kBeforeColor(170, 170, 170);

} // namespace

PruneChart::PruneChart(QWidget* parent)
    : QCustomPlot(parent), title_(new QCPTextElement(this, tr("Sparsity per layer"))),
      group_(new QCPBarsGroup(this)), before_(new QCPBars(xAxis, yAxis)),
      after_(new QCPBars(xAxis, yAxis)), overall_(addGraph(xAxis, yAxis)),
      ticker_(new QCPAxisTickerText) {
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, title_);
    before_->setName(tr("before pruning"));
    after_->setName(tr("after pruning"));
    for (QCPBars* bars : {before_, after_}) {
        bars->setWidth(0.4);
        bars->setBarsGroup(group_);
    }
    group_->setSpacing(1);
    before_->setBrush(kBeforeColor);
    before_->setPen(QPen(kBeforeColor.darker(130)));
    const QColor after = seriesColor(4);
    after_->setBrush(after);
    after_->setPen(QPen(after.darker(130)));
    overall_->setPen(QPen(seriesColor(0), 1.5, Qt::DashLine));
    overall_->setName(tr("overall after pruning"));
    xAxis->setTicker(ticker_);
    xAxis->grid()->setVisible(false);
    xAxis->setTickLabelRotation(-50);
    yAxis->setLabel(tr("zero weights (%)"));
    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    setMinimumSize(360, 240);
    applyPalette();
}

void PruneChart::clear() {
    setResult(PruneStudyResult());
}

void PruneChart::setResult(const PruneStudyResult& r) {
    ticker_->clear();
    layers_ = int(r.layers.size());
    QVector<double> keys, before, after;
    for (int i = 0; i < layers_; ++i) {
        const LayerSparsity& layer = r.layers[size_t(i)];
        keys << i;
        before << 100 * layer.sparsityBefore();
        after << 100 * layer.sparsityAfter();
        ticker_->addTick(i, layerLabel(layer));
    }
    before_->setData(keys, before, true);
    // Weights that were dense before: no grey bars, the coloured ones centred on their layer.
    const bool sparse_before = r.zerosBefore() > 0;
    before_->setVisible(sparse_before);
    before_->setBarsGroup(sparse_before ? group_ : nullptr);
    if (sparse_before)
        before_->addToLegend();
    else
        before_->removeFromLegend();
    after_->setData(keys, after, true);
    const bool any = r.params() > 0;
    const double overall = any ? 100.0 * double(r.zerosAfter()) / double(r.params()) : 0;
    const double right = std::max(1, layers_) - 0.4;
    overall_->setData(QVector<double>{-0.6, right}, QVector<double>{overall, overall}, true);
    overall_->setVisible(any);
    overall_->setName(tr("overall after pruning: %1 %").arg(overall, 0, 'f', 1));
    if (any)
        overall_->addToLegend();
    else
        overall_->removeFromLegend();
    title_->setText(r.model.empty()
                        ? tr("Sparsity per layer")
                        : tr("%1: sparsity per layer").arg(QString::fromStdString(r.model)));
    xAxis->setRange(-0.6, right);
    yAxis->setRange(0, 110);
    applyPalette();
    replot(rpQueuedReplot);
}

void PruneChart::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        replot(rpQueuedReplot);
    }
}

void PruneChart::applyPalette() {
    stylePlot(*this);
    styleTitle(title_, palette(), font());
}

} // namespace ts::gui
