#include "common/ChartStyle.h"

#include "common/ThemePalette.h"

namespace ts::gui {

void styleAxisRect(QCPAxisRect* rect, const QPalette& p) {
    for (QCPAxis* axis : rect->axes()) {
        axis->setBasePen(QPen(p.color(QPalette::Mid)));
        axis->setTickPen(QPen(p.color(QPalette::Mid)));
        axis->setSubTickPen(QPen(p.color(QPalette::Mid)));
        axis->setTickLabelColor(p.color(QPalette::WindowText));
        axis->setLabelColor(p.color(QPalette::WindowText));
        axis->grid()->setPen(
            QPen(isDark(p) ? QColor(255, 255, 255, 28) : QColor(0, 0, 0, 28), 1, Qt::DotLine));
        axis->grid()->setSubGridPen(
            QPen(isDark(p) ? QColor(255, 255, 255, 12) : QColor(0, 0, 0, 12), 1, Qt::DotLine));
    }
}

void styleTitle(QCPTextElement* title, const QPalette& p, const QFont& font) {
    QFont bold = font;
    bold.setBold(true);
    title->setFont(bold);
    title->setTextColor(p.color(QPalette::WindowText));
}

void styleLegend(QCPLegend* legend, const QPalette& p) {
    QColor fill = p.color(QPalette::Base);
    fill.setAlpha(220);
    legend->setBrush(fill);
    legend->setBorderPen(QPen(p.color(QPalette::Mid)));
    legend->setTextColor(p.color(QPalette::WindowText));
}

void stylePlot(QCustomPlot& plot) {
    const QPalette p = plot.palette();
    plot.setBackground(p.color(QPalette::Base));
    for (QCPAxisRect* rect : plot.axisRects())
        styleAxisRect(rect, p);
    if (plot.legend) styleLegend(plot.legend, p);
}

} // namespace ts::gui
