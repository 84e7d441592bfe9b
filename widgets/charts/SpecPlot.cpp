#include "charts/SpecPlot.h"

#include <algorithm>
#include <cmath>

#include "charts/ThemedPlot.h"

namespace ts::gui {
namespace {

constexpr double kMarkerSize = 8;
constexpr double kHollowMarkerSize = 10;

QColor qColor(const chart::Color& c) {
    return QColor(c.r, c.g, c.b);
}

QString qText(const std::string& text) {
    return QString::fromStdString(text);
}

QCPAxis* keyAxis(const SpecPanel& panel) {
    return panel.rect->axis(QCPAxis::atBottom);
}

QCPAxis* valueAxis(const SpecPanel& panel) {
    return panel.rect->axis(QCPAxis::atLeft);
}

// Removes what an earlier drawSpec put on the panel (other panels keep theirs).
void clearPanel(const SpecPanel& panel) {
    QCustomPlot* plot = panel.rect->parentPlot();
    if (panel.legend) panel.legend->clearItems();
    QList<QCPBarsGroup*> groups;
    for (int i = plot->plottableCount() - 1; i >= 0; --i) {
        QCPAbstractPlottable* p = plot->plottable(i);
        if (p->keyAxis()->axisRect() != panel.rect) continue;
        if (auto* bars = qobject_cast<QCPBars*>(p); bars && bars->barsGroup())
            if (!groups.contains(bars->barsGroup())) groups << bars->barsGroup();
        plot->removePlottable(p);
    }
    qDeleteAll(groups);
    for (int i = plot->itemCount() - 1; i >= 0; --i)
        if (plot->item(i)->clipAxisRect() == panel.rect) plot->removeItem(i);
}

QCPItemText* addLabel(const SpecPanel& panel, double x, double y, const QString& text) {
    auto* label = new QCPItemText(panel.rect->parentPlot());
    label->setClipAxisRect(panel.rect);
    label->position->setAxes(keyAxis(panel), valueAxis(panel));
    label->position->setCoords(x, y);
    label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    label->setPadding(QMargins(0, 0, 0, 3));
    label->setText(text);
    return label;
}

void setLogScale(QCPAxis* axis, bool log) {
    if (log) {
        QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
        ticker->setLogBase(10);
        ticker->setSubTickCount(8);
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setNumberPrecision(0);
    } else {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        axis->setNumberFormat(QStringLiteral("g"));
        axis->setNumberPrecision(6);
    }
    axis->grid()->setSubGridVisible(log);
    axis->grid()->setVisible(true);
}

// Long or many category names are turned so that they do not collide.
double tickLabelRotation(const QStringList& ticks) {
    int chars = 0;
    for (const QString& t : ticks)
        chars += t.size() + 2;
    return chars > 200 ? -60 : chars > 60 ? -30 : 0;
}

struct Extent {
    double lo = INFINITY, hi = -INFINITY;
    void add(double v) {
        if (!std::isfinite(v)) return;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    bool empty() const { return lo > hi; }
};

void finishLegend(const SpecPanel& panel, int named) {
    if (!panel.legend) return;
    panel.legend->setVisible(named > 1);
}

DrawnSpec drawBars(const chart::BarChart& c, const SpecPanel& panel) {
    DrawnSpec drawn;
    QCustomPlot* plot = panel.rect->parentPlot();
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (size_t i = 0; i < c.categories.size(); ++i) {
        drawn.ticks << qText(c.categories[i]);
        ticker->addTick(double(i), drawn.ticks.back());
    }
    setLogScale(keyAxis(panel), false);
    setLogScale(valueAxis(panel), false);
    keyAxis(panel)->setTicker(ticker);
    keyAxis(panel)->grid()->setVisible(false);
    keyAxis(panel)->setTickLabelRotation(tickLabelRotation(drawn.ticks));
    keyAxis(panel)->setLabel(qText(c.x_label));
    valueAxis(panel)->setLabel(qText(c.y_label));

    const int side_by_side = c.overlay ? 1 : int(c.series.size());
    const double width = side_by_side > 1 ? 0.8 / side_by_side : 0.65;
    QCPBarsGroup* group = side_by_side > 1 ? new QCPBarsGroup(plot) : nullptr;
    if (group) group->setSpacing(1);
    double top = 0;
    int named = 0;
    for (size_t s = 0; s < c.series.size(); ++s) {
        const chart::BarSeries& series = c.series[s];
        auto* bars = new QCPBars(keyAxis(panel), valueAxis(panel));
        bars->removeFromLegend(); // QCustomPlot adds new plottables to the main legend
        bars->setName(qText(series.name));
        bars->setWidth(width);
        const QColor color = qColor(series.color);
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(130)));
        if (group) bars->setBarsGroup(group);
        QVector<double> keys, values, errors;
        for (size_t i = 0; i < series.values.size(); ++i) {
            keys << double(i);
            values << series.values[i];
            const double error = i < series.errors.size() ? series.errors[i] : NAN;
            errors << (std::isfinite(error) ? error : 0.0);
            if (std::isfinite(series.values[i]))
                top = std::max(top, series.values[i] + (std::isfinite(error) ? error : 0.0));
        }
        bars->setData(keys, values, true);
        if (!series.errors.empty()) {
            auto* error_bars = new QCPErrorBars(keyAxis(panel), valueAxis(panel));
            error_bars->removeFromLegend();
            error_bars->setDataPlottable(bars);
            error_bars->setData(errors);
            error_bars->setPen(QPen(color.darker(170), 1.5));
        }
        if (panel.legend && !series.name.empty()) {
            bars->addToLegend(panel.legend);
            ++named;
        }
        // Side-by-side bars stand off their category's centre.
        const double offset = group ? (double(s) - (side_by_side - 1) / 2.0) * width : 0;
        for (size_t i = 0; i < series.values.size(); ++i) {
            const double v = series.values[i];
            const std::string text = i < series.labels.size()             ? series.labels[i]
                                     : c.value_labels && std::isfinite(v) ? chart::formatCompact(v)
                                                                          : std::string();
            if (text.empty()) continue;
            const double error = i < series.errors.size() && std::isfinite(series.errors[i])
                                     ? series.errors[i]
                                     : 0.0;
            addLabel(panel, double(i) + offset, std::isfinite(v) ? v + error : 0.0, qText(text));
        }
        drawn.series.push_back(bars);
    }
    const double left = -0.6, right = std::max<double>(1, c.categories.size()) - 0.4;
    for (const chart::ReferenceLine& line : c.lines) {
        auto* graph = new QCPGraph(keyAxis(panel), valueAxis(panel));
        graph->setName(qText(line.name));
        graph->setPen(QPen(qColor(line.color), 1.5, Qt::DashLine));
        graph->setData({left, right}, {line.value, line.value}, true);
        graph->removeFromLegend();
        if (panel.legend && !line.name.empty()) {
            graph->addToLegend(panel.legend);
            ++named;
        }
        top = std::max(top, line.value);
        drawn.lines.push_back(graph);
    }
    keyAxis(panel)->setRange(left, right);
    // Headroom for the labels above the bars (two lines for the ladder's).
    valueAxis(panel)->setRange(0, top > 0 ? top * 1.25 : 1);
    finishLegend(panel, named);
    return drawn;
}

// A series drawn dot by dot (each its own size): a legend entry without data,
// then one graph per point.
QCPGraph* drawSizedDots(const chart::XySeries& series, const SpecPanel& panel,
                        const QVector<double>& xs, const QVector<double>& ys,
                        const QVector<double>& sizes) {
    const QColor color = qColor(series.color);
    QColor fill = color;
    fill.setAlpha(190);
    auto* entry = new QCPGraph(keyAxis(panel), valueAxis(panel));
    entry->removeFromLegend();
    entry->setLineStyle(QCPGraph::lsNone);
    entry->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 9));
    for (int i = 0; i < xs.size(); ++i) {
        auto* dot = new QCPGraph(keyAxis(panel), valueAxis(panel));
        dot->removeFromLegend();
        dot->setLineStyle(QCPGraph::lsNone);
        dot->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, QPen(color.darker(140), 1), fill, sizes[i]));
        dot->setData({xs[i]}, {ys[i]}, true);
    }
    return entry;
}

DrawnSpec drawXy(const chart::XyChart& c, const SpecPanel& panel) {
    DrawnSpec drawn;
    setLogScale(keyAxis(panel), c.log_x);
    setLogScale(valueAxis(panel), c.log_y);
    keyAxis(panel)->setLabel(qText(c.x_label));
    valueAxis(panel)->setLabel(qText(c.y_label));
    keyAxis(panel)->setTickLabelRotation(0);
    if (!c.x_ticks.empty()) {
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        for (const auto& [x, label] : c.x_ticks) {
            ticker->addTick(x, qText(label));
            drawn.ticks << qText(label);
        }
        keyAxis(panel)->setTicker(ticker);
        keyAxis(panel)->grid()->setVisible(false);
    }
    // Points a log axis cannot show are left out (a gap in a line).
    auto usable = [](double v, bool log) { return std::isfinite(v) && (!log || v > 0); };
    Extent x_extent, y_extent;
    struct Label {
        double x, y, radius;
        QString text;
    };
    std::vector<Label> labels;
    int named = 0;
    for (const chart::XySeries& series : c.series) {
        QVector<double> xs, ys, sizes, errors;
        for (size_t i = 0; i < series.xs.size() && i < series.ys.size(); ++i) {
            const double x = series.xs[i], y = series.ys[i];
            const bool ok = usable(x, c.log_x) && usable(y, c.log_y);
            if (!ok && !series.line) continue;
            const double error = i < series.errors.size() && std::isfinite(series.errors[i])
                                     ? series.errors[i]
                                     : 0.0;
            xs << x;
            ys << (ok ? y : NAN);
            errors << error;
            if (!ok) continue;
            x_extent.add(x);
            y_extent.add(y + error);
            const double size = i < series.marker_sizes.size() ? series.marker_sizes[i]
                                : series.hollow_markers        ? kHollowMarkerSize
                                                               : kMarkerSize;
            sizes << size;
            if (i < series.point_labels.size() && !series.point_labels[i].empty())
                labels.push_back(
                    {x, y, series.markers ? size / 2 : 0, qText(series.point_labels[i])});
        }
        const QColor color = qColor(series.color);
        QCPGraph* graph = nullptr;
        if (!series.marker_sizes.empty() && !series.line) {
            graph = drawSizedDots(series, panel, xs, ys, sizes);
        } else {
            graph = new QCPGraph(keyAxis(panel), valueAxis(panel));
            graph->removeFromLegend();
            graph->setLineStyle(series.line ? QCPGraph::lsLine : QCPGraph::lsNone);
            graph->setPen(series.line ? QPen(color, 2, series.dashed ? Qt::DashLine : Qt::SolidLine)
                                      : QPen(color));
            if (series.markers)
                graph->setScatterStyle(
                    series.hollow_markers
                        ? QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color, 2), Qt::NoBrush,
                                          kHollowMarkerSize)
                        : QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, kMarkerSize));
            graph->setData(xs, ys, true);
            if (!series.errors.empty()) {
                auto* error_bars = new QCPErrorBars(keyAxis(panel), valueAxis(panel));
                error_bars->removeFromLegend();
                error_bars->setDataPlottable(graph);
                error_bars->setData(errors);
                error_bars->setPen(QPen(color.darker(150), 1.5));
            }
        }
        graph->setName(qText(series.name));
        if (panel.legend && !series.name.empty()) {
            graph->addToLegend(panel.legend);
            ++named;
        }
        drawn.series.push_back(graph);
    }
    if (!c.x_ticks.empty()) {
        keyAxis(panel)->setRange(-0.5, double(c.x_ticks.size()) - 0.5);
    } else if (x_extent.empty()) {
        keyAxis(panel)->setRange(c.log_x ? QCPRange(0.1, 100) : QCPRange(0, 1));
    } else if (c.log_x) {
        keyAxis(panel)->setRange(x_extent.lo / 1.5, x_extent.hi * 1.5);
    } else {
        const double pad = std::max(1e-9, (x_extent.hi - x_extent.lo) * 0.05);
        keyAxis(panel)->setRange(x_extent.lo - pad, x_extent.hi + pad);
    }
    if (y_extent.empty())
        valueAxis(panel)->setRange(c.log_y ? QCPRange(0.1, 1000) : QCPRange(0, 1));
    else if (c.log_y)
        valueAxis(panel)->setRange(y_extent.lo / 2, y_extent.hi * 2.5);
    else
        valueAxis(panel)->setRange(std::min(0.0, y_extent.lo),
                                   y_extent.hi > 0 ? y_extent.hi * 1.18 : 1);
    // Names to the right of their dot, to the left near the right edge.
    const QCPRange x_range = keyAxis(panel)->range();
    for (const Label& l : labels) {
        const double share =
            c.log_x ? std::log(l.x / x_range.lower) / std::log(x_range.upper / x_range.lower)
                    : (l.x - x_range.lower) / x_range.size();
        QCPItemText* item = addLabel(panel, l.x, l.y, l.text);
        if (l.radius <= 0) continue;
        const int r = int(l.radius);
        const bool right_edge = share > 0.7;
        item->setPositionAlignment((right_edge ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
        item->setPadding(right_edge ? QMargins(0, 0, r + 2, r / 2) : QMargins(r + 2, 0, 0, r / 2));
    }
    finishLegend(panel, named);
    return drawn;
}

} // namespace

SpecPanel mainSpecPanel(ThemedPlot& plot) {
    SpecPanel panel;
    panel.title = plot.titleElement();
    panel.rect = plot.axisRect();
    panel.legend = plot.legend;
    panel.rect->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    return panel;
}

SpecPanel addSpecPanel(QCustomPlot& plot, QCPLayoutGrid* grid, int row, int column) {
    SpecPanel panel;
    auto* cell = new QCPLayoutGrid;
    grid->addElement(row, column, cell);
    panel.title = new QCPTextElement(&plot);
    panel.rect = new QCPAxisRect(&plot);
    cell->addElement(0, 0, panel.title);
    cell->addElement(1, 0, panel.rect);
    cell->setRowStretchFactor(0, 0.001);
    panel.legend = new QCPLegend;
    panel.rect->insetLayout()->addElement(panel.legend, Qt::AlignTop | Qt::AlignLeft);
    panel.legend->setLayer(QStringLiteral("legend"));
    return panel;
}

DrawnSpec drawSpec(const chart::ChartSpec& spec, const SpecPanel& panel) {
    clearPanel(panel);
    const std::string& title =
        std::visit([](const auto& c) -> const std::string& { return c.title; }, spec);
    if (panel.title) panel.title->setText(qText(title));
    if (const auto* bars = std::get_if<chart::BarChart>(&spec)) return drawBars(*bars, panel);
    return drawXy(std::get<chart::XyChart>(spec), panel);
}

} // namespace ts::gui
