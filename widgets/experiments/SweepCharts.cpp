#include "experiments/SweepCharts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "common/ChartStyle.h"
#include "common/ThemePalette.h"

namespace ts::gui {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kMiB = 1024.0 * 1024.0;
constexpr int kMaxValueLabels = 12;

QStringList distinctValues(const SweepResult& r, size_t axis) {
    QStringList out;
    for (const SweepRow& row : r.rows) {
        const QString v = QString::fromStdString(row.point.values[axis].second);
        if (!out.contains(v)) out << v;
    }
    return out;
}

double imagesPerSec(const SweepRow& row) {
    return row.result.outcome == PointOutcome::Completed ? row.result.summary.median_images_per_sec
                                                         : kNaN;
}

double memoryMiB(const SweepRow& row) {
    return row.result.memory_bytes > 0 ? double(row.result.memory_bytes) / kMiB : kNaN;
}

double predictedMiB(const SweepRow& row) {
    return row.result.outcome == PointOutcome::Skipped && row.predicted_bytes > 0
               ? double(row.predicted_bytes) / kMiB
               : kNaN;
}

double finiteMax(const QVector<double>& values) {
    double m = 0;
    for (double v : values)
        if (std::isfinite(v)) m = std::max(m, v);
    return m;
}

} // namespace

SweepCharts::SweepCharts(QWidget* parent) : QCustomPlot(parent), ticker_(new QCPAxisTickerText) {
    setAutoAddPlottableToLegend(false);
    plotLayout()->clear(); // also deletes the default axis rect and legend
    auto* panels = new QCPLayoutGrid;
    plotLayout()->addElement(0, 0, panels);
    throughput_ = makePanel(0, tr("Throughput (images/s)"));
    memory_ = makePanel(1, tr("Memory needed (MiB)"));
    panels->addElement(0, 0, throughput_.title);
    panels->addElement(0, 1, memory_.title);
    panels->addElement(1, 0, throughput_.rect);
    panels->addElement(1, 1, memory_.rect);
    panels->setRowStretchFactor(0, 0.001);
    legend_ = new QCPLegend;
    plotLayout()->addElement(1, 0, legend_);
    plotLayout()->setRowStretchFactor(1, 0.001);
    legend_->setFillOrder(QCPLegend::foColumnsFirst);
    legend_->setWrap(6);
    legend_->setLayer(QStringLiteral("legend"));
    setMinimumSize(420, 260);
    applyPalette();
    clear();
}

SweepCharts::Panel SweepCharts::makePanel(int, const QString& title) {
    Panel panel;
    panel.title = new QCPTextElement(this, title);
    panel.rect = new QCPAxisRect(this);
    panel.rect->axis(QCPAxis::atBottom)->setTicker(ticker_);
    panel.rect->axis(QCPAxis::atBottom)->grid()->setVisible(false);
    panel.rect->axis(QCPAxis::atLeft)->setNumberFormat(QStringLiteral("gb"));
    return panel;
}

QCPGraph* SweepCharts::addLine(const Panel& panel, const QString& name, const QColor& color) {
    auto* graph =
        new QCPGraph(panel.rect->axis(QCPAxis::atBottom), panel.rect->axis(QCPAxis::atLeft));
    graph->setName(name);
    graph->setPen(QPen(color, 2));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, color, 8));
    return graph;
}

void SweepCharts::clear() {
    clearPlottables();
    clearItems();
    legend_->clearItems();
    throughput_lines_.clear();
    memory_lines_.clear();
    predicted_ = nullptr;
    categories_.clear();
    ticker_->clear();
    for (const Panel* panel : {&throughput_, &memory_}) {
        panel->rect->axis(QCPAxis::atBottom)->setRange(-0.5, 0.5);
        panel->rect->axis(QCPAxis::atLeft)->setRange(0, 1);
        panel->rect->axis(QCPAxis::atBottom)->setLabel(QString());
    }
    replot(rpQueuedReplot);
}

void SweepCharts::setResult(const SweepResult& r) {
    clear();
    if (r.rows.empty() || r.spec.axes.empty()) return;
    categories_ = distinctValues(r, 0);
    for (int i = 0; i < categories_.size(); ++i)
        ticker_->addTick(i, categories_[i]);
    const bool grid = r.spec.axes.size() > 1;
    const QStringList groups = grid ? distinctValues(r, 1) : QStringList{QString()};
    const QString key = QString::fromStdString(r.spec.axes[0].key);
    double max_ips = 0, max_mib = 0;
    QVector<double> predicted_x, predicted_y;
    for (int g = 0; g < groups.size(); ++g) {
        const QString name =
            grid
                ? QStringLiteral("%1=%2").arg(QString::fromStdString(r.spec.axes[1].key), groups[g])
                : tr("measured");
        const QColor color = seriesColor(g);
        QCPGraph* ips = addLine(throughput_, name, color);
        QCPGraph* mem = addLine(memory_, name, color);
        QVector<double> xs, ips_y, mem_y;
        for (int i = 0; i < categories_.size(); ++i) {
            double y_ips = kNaN, y_mem = kNaN;
            for (const SweepRow& row : r.rows) {
                if (QString::fromStdString(row.point.values[0].second) != categories_[i]) continue;
                if (grid && QString::fromStdString(row.point.values[1].second) != groups[g])
                    continue;
                y_ips = imagesPerSec(row);
                y_mem = memoryMiB(row);
                if (std::isfinite(predictedMiB(row))) {
                    predicted_x << i;
                    predicted_y << predictedMiB(row);
                }
            }
            xs << i;
            ips_y << y_ips;
            mem_y << y_mem;
        }
        ips->setData(xs, ips_y, true);
        mem->setData(xs, mem_y, true);
        max_ips = std::max(max_ips, finiteMax(ips_y));
        max_mib = std::max(max_mib, finiteMax(mem_y));
        throughput_lines_.push_back(ips);
        memory_lines_.push_back(mem);
        legend_->addItem(new QCPPlottableLegendItem(legend_, ips));
        if (!grid && categories_.size() <= kMaxValueLabels) {
            for (int i = 0; i < xs.size(); ++i)
                for (auto [graph, value, text] :
                     {std::tuple{ips, ips_y[i], QString::number(ips_y[i], 'f', 1)},
                      std::tuple{mem, mem_y[i], QString::number(mem_y[i], 'f', 0)}}) {
                    if (!std::isfinite(value)) continue;
                    auto* label = new QCPItemText(this);
                    label->setClipAxisRect(graph->keyAxis()->axisRect());
                    label->position->setAxes(graph->keyAxis(), graph->valueAxis());
                    label->position->setCoords(xs[i], value);
                    label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
                    label->setPadding(QMargins(0, 0, 0, 6));
                    label->setText(text);
                    label->setColor(palette().color(QPalette::WindowText));
                }
        }
    }
    if (!predicted_x.isEmpty()) {
        const QColor color = seriesColor(2);
        predicted_ = new QCPGraph(memory_.rect->axis(QCPAxis::atBottom),
                                  memory_.rect->axis(QCPAxis::atLeft));
        predicted_->setName(tr("predicted need (skipped)"));
        predicted_->setLineStyle(QCPGraph::lsNone);
        predicted_->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color, 2), Qt::NoBrush, 10));
        predicted_->setData(predicted_x, predicted_y);
        max_mib = std::max(max_mib, finiteMax(predicted_y));
        legend_->addItem(new QCPPlottableLegendItem(legend_, predicted_));
    }
    for (const Panel* panel : {&throughput_, &memory_}) {
        panel->rect->axis(QCPAxis::atBottom)->setRange(-0.5, categories_.size() - 0.5);
        panel->rect->axis(QCPAxis::atBottom)->setLabel(key);
    }
    throughput_.rect->axis(QCPAxis::atLeft)->setRange(0, max_ips > 0 ? max_ips * 1.18 : 1);
    memory_.rect->axis(QCPAxis::atLeft)->setRange(0, max_mib > 0 ? max_mib * 1.18 : 1);
    applyPalette();
    replot(rpQueuedReplot);
}

void SweepCharts::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        replot(rpQueuedReplot);
    }
}

void SweepCharts::applyPalette() {
    const QPalette p = palette();
    setBackground(p.color(QPalette::Base));
    for (const Panel* panel : {&throughput_, &memory_}) {
        styleAxisRect(panel->rect, p);
        styleTitle(panel->title, p, font());
    }
    styleLegend(legend_, p);
    legend_->setBorderPen(Qt::NoPen);
    for (int i = 0; i < itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(item(i)))
            text->setColor(p.color(QPalette::WindowText));
}

} // namespace ts::gui
