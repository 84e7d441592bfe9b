#include "runs/ComparisonCharts.h"

#include <algorithm>
#include <cmath>

#include "common/ThemePalette.h"

namespace ts::gui {
namespace {

// Run labels are "N\nname", shortened so that they sit side by side under the
// bars (QCustomPlot drops tick labels that would leave the widget): the more
// runs, the shorter the names.
constexpr int kLabelCharsPerPanel = 28;
constexpr double kMiB = 1024.0 * 1024.0;

double orZero(double v) {
    return std::isfinite(v) ? v : 0.0;
}

} // namespace

ComparisonCharts::ComparisonCharts(QWidget* parent)
    : QCustomPlot(parent), run_ticker_(new QCPAxisTickerText) {
    setAutoAddPlottableToLegend(false);
    plotLayout()->clear(); // also deletes the default axis rect and legend
    panels_.push_back(makePanel(0, 0, tr("Throughput (images/s)"), {tr("images/s")}));
    panels_.push_back(makePanel(0, 1, tr("Mean epoch time (s)"), {tr("epoch")}));
    panels_.push_back(
        makePanel(1, 0, tr("Peak memory (MiB)"), {tr("RSS"), tr("tensors"), tr("device")}));
    panels_.push_back(makePanel(1, 1, tr("Accuracy (%)"), {tr("train"), tr("val (best)")}));
    setMinimumSize(360, 280);
    applyPalette();
}

// Each panel is a title row, a legend row when it has several series, and an
// axis rect; the panels sit in a 2 x 2 grid.
ComparisonCharts::Panel ComparisonCharts::makePanel(int row, int column, const QString& title,
                                                    const QStringList& series) {
    Panel panel;
    auto* cell = new QCPLayoutGrid;
    plotLayout()->addElement(row, column, cell);
    panel.title = new QCPTextElement(this, title);
    panel.rect = new QCPAxisRect(this);
    cell->addElement(0, 0, panel.title);
    cell->setRowStretchFactor(0, 0.001);
    panel.group = series.size() > 1 ? new QCPBarsGroup(this) : nullptr;
    if (series.size() > 1) {
        // Items side by side under the title: the bars stay unobstructed.
        panel.legend = new QCPLegend;
        cell->addElement(1, 0, panel.legend);
        cell->setRowStretchFactor(1, 0.001);
        panel.legend->setFillOrder(QCPLegend::foColumnsFirst);
        panel.legend->setWrap(series.size());
        panel.legend->setLayer(QStringLiteral("legend"));
    }
    cell->addElement(cell->rowCount(), 0, panel.rect);
    panel.rect->axis(QCPAxis::atBottom)->setTicker(run_ticker_);
    panel.rect->axis(QCPAxis::atBottom)->grid()->setVisible(false);
    for (int i = 0; i < series.size(); ++i) {
        auto* bars =
            new QCPBars(panel.rect->axis(QCPAxis::atBottom), panel.rect->axis(QCPAxis::atLeft));
        bars->setName(series[i]);
        bars->setWidth(series.size() > 1 ? 0.8 / series.size() : 0.6);
        const QColor color = seriesColor(i);
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(130)));
        if (panel.group) bars->setBarsGroup(panel.group);
        if (panel.legend) panel.legend->addItem(new QCPPlottableLegendItem(panel.legend, bars));
        panel.bars.push_back(bars);
    }
    return panel;
}

void ComparisonCharts::setRuns(const std::vector<RunRow>& runs) {
    run_count_ = int(runs.size());
    run_ticker_->clear();
    const int max_chars = std::max(4, kLabelCharsPerPanel / std::max(1, run_count_));
    for (int i = 0; i < run_count_; ++i) {
        QString label = runs[size_t(i)].name;
        if (label.size() > max_chars) label = label.left(max_chars - 1) + QChar(0x2026);
        run_ticker_->addTick(i, QStringLiteral("%1\n%2").arg(i + 1).arg(label));
    }
    std::vector<std::vector<double>> throughput(1), epoch(1), memory(3), accuracy(2);
    for (const RunRow& r : runs) {
        throughput[0].push_back(orZero(r.images_per_sec));
        epoch[0].push_back(orZero(r.epoch_time_s));
        memory[0].push_back(double(r.peak_rss_bytes) / kMiB);
        memory[1].push_back(double(r.peak_tensor_bytes) / kMiB);
        memory[2].push_back(double(r.peak_device_bytes) / kMiB);
        accuracy[0].push_back(100.0 * orZero(r.train_accuracy));
        accuracy[1].push_back(100.0 * orZero(r.val_accuracy));
    }
    fillPanel(panels_[0], throughput);
    fillPanel(panels_[1], epoch);
    fillPanel(panels_[2], memory);
    fillPanel(panels_[3], accuracy);
    replot(rpQueuedReplot);
}

void ComparisonCharts::fillPanel(Panel& panel, const std::vector<std::vector<double>>& values) {
    double max_value = 0;
    if (panel.group) panel.group->clear();
    for (size_t s = 0; s < panel.bars.size(); ++s) {
        QVector<double> keys, data;
        for (size_t i = 0; i < values[s].size(); ++i) {
            keys << double(i);
            data << values[s][i];
            max_value = std::max(max_value, values[s][i]);
        }
        panel.bars[s]->setData(keys, data, true);
        // A series that is zero for every run (device memory of CPU runs) is left out.
        const bool any = std::any_of(data.begin(), data.end(), [](double v) { return v != 0; });
        const bool show = any || panel.bars.size() == 1;
        panel.bars[s]->setVisible(show);
        if (panel.group && show) panel.group->append(panel.bars[s]);
        if (panel.legend && show != panel.legend->hasItemWithPlottable(panel.bars[s])) {
            if (show)
                panel.legend->addItem(new QCPPlottableLegendItem(panel.legend, panel.bars[s]));
            else
                panel.legend->removeItem(panel.legend->itemWithPlottable(panel.bars[s]));
        }
    }
    panel.rect->axis(QCPAxis::atBottom)->setRange(-0.6, std::max(1, run_count_) - 0.4);
    panel.rect->axis(QCPAxis::atLeft)->setRange(0, max_value > 0 ? max_value * 1.12 : 1.0);
}

void ComparisonCharts::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        replot(rpQueuedReplot);
    }
}

void ComparisonCharts::applyPalette() {
    const QPalette p = palette();
    setBackground(p.color(QPalette::Base));
    QFont bold = font();
    bold.setBold(true);
    for (Panel& panel : panels_) {
        panel.title->setTextColor(p.color(QPalette::WindowText));
        panel.title->setFont(bold);
        if (panel.legend) {
            panel.legend->setBrush(Qt::NoBrush);
            panel.legend->setBorderPen(Qt::NoPen);
            panel.legend->setTextColor(p.color(QPalette::WindowText));
        }
        for (QCPAxis* axis : panel.rect->axes()) {
            axis->setBasePen(QPen(p.color(QPalette::Mid)));
            axis->setTickPen(QPen(p.color(QPalette::Mid)));
            axis->setSubTickPen(QPen(p.color(QPalette::Mid)));
            axis->setTickLabelColor(p.color(QPalette::WindowText));
            axis->grid()->setPen(
                QPen(isDark(p) ? QColor(255, 255, 255, 28) : QColor(0, 0, 0, 28), 1, Qt::DotLine));
        }
    }
}

} // namespace ts::gui
