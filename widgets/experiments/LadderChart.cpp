#include "experiments/LadderChart.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/ChartStyle.h"
#include "common/ThemePalette.h"

namespace ts::gui {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const QColor kDroppedColor(160, 160, 160);

} // namespace

LadderChart::LadderChart(QWidget* parent)
    : QCustomPlot(parent), title_(new QCPTextElement(this, tr("Images/s per rung"))),
      kept_(new QCPBars(xAxis, yAxis)), dropped_(new QCPBars(xAxis, yAxis)),
      baseline_(new QCPItemStraightLine(this)), ticker_(new QCPAxisTickerText) {
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, title_);
    kept_->setName(tr("kept"));
    dropped_->setName(tr("not kept"));
    for (QCPBars* bars : {kept_, dropped_})
        bars->setWidth(0.65);
    const QColor kept = seriesColor(4);
    kept_->setBrush(kept);
    kept_->setPen(QPen(kept.darker(130)));
    dropped_->setBrush(kDroppedColor);
    dropped_->setPen(QPen(kDroppedColor.darker(130)));
    baseline_->setPen(QPen(seriesColor(0), 1.5, Qt::DashLine));
    baseline_->setVisible(false);
    xAxis->setTicker(ticker_);
    xAxis->grid()->setVisible(false);
    xAxis->setTickLabelRotation(-20);
    yAxis->setLabel(tr("images/s"));
    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    setMinimumSize(360, 240);
    applyPalette();
}

void LadderChart::clear() {
    setResult(LadderResult());
}

void LadderChart::setResult(const LadderResult& r) {
    for (QCPItemText* label : labels_)
        removeItem(label);
    labels_.clear();
    ticker_->clear();
    rungs_ = int(r.rows.size());
    QVector<double> keys, kept, dropped;
    double max_value = 0;
    for (int i = 0; i < rungs_; ++i) {
        const RungRow& row = r.rows[size_t(i)];
        const bool measured = row.ran && row.result.outcome == PointOutcome::Completed;
        const double ips = measured ? row.result.summary.median_images_per_sec : kNaN;
        keys << i;
        kept << (row.kept ? ips : kNaN);
        dropped << (row.kept ? kNaN : ips);
        ticker_->addTick(i, QString::fromStdString(row.id));
        if (!measured) {
            // Skipped or failed: say so where the bar would be.
            auto* label = new QCPItemText(this);
            label->position->setCoords(i, 0);
            label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            label->setText(row.ran ? tr("failed") : tr("skipped"));
            label->setPadding(QMargins(0, 0, 0, 4));
            labels_ << label;
            continue;
        }
        max_value = std::max(max_value, ips);
        auto* label = new QCPItemText(this);
        label->position->setCoords(i, ips);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setPadding(QMargins(0, 0, 0, 3));
        label->setText(
            row.speedup > 0
                ? QStringLiteral("%1\n%2×").arg(ips, 0, 'f', 1).arg(row.speedup, 0, 'f', 2)
                : QString::number(ips, 'f', 1));
        labels_ << label;
    }
    kept_->setData(keys, kept, true);
    dropped_->setData(keys, dropped, true);
    const bool has_baseline = r.baseline_images_per_sec > 0;
    baseline_->setVisible(has_baseline);
    if (has_baseline) {
        baseline_->point1->setCoords(0, r.baseline_images_per_sec);
        baseline_->point2->setCoords(1, r.baseline_images_per_sec);
    }
    title_->setText(
        r.spec.base.name.empty()
            ? tr("Images/s per rung")
            : tr("%1: images/s per rung").arg(QString::fromStdString(r.spec.base.name)));
    xAxis->setRange(-0.6, std::max(1, rungs_) - 0.4);
    yAxis->setRange(0, max_value > 0 ? max_value * 1.25 : 1);
    applyPalette();
    replot(rpQueuedReplot);
}

void LadderChart::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        replot(rpQueuedReplot);
    }
}

void LadderChart::applyPalette() {
    stylePlot(*this);
    styleTitle(title_, palette(), font());
    for (QCPItemText* label : labels_)
        label->setColor(palette().color(QPalette::WindowText));
}

} // namespace ts::gui
