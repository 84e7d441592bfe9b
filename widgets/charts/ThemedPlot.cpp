#include "charts/ThemedPlot.h"

namespace ts::gui {
namespace {

// The text colour, faint: a grid that reads on light and dark palettes alike.
QColor faint(const QPalette& p, int alpha) {
    QColor c = p.color(QPalette::WindowText);
    c.setAlpha(alpha);
    return c;
}

void styleAxisRect(QCPAxisRect* rect, const QPalette& p) {
    for (QCPAxis* axis : rect->axes()) {
        axis->setBasePen(QPen(p.color(QPalette::Mid)));
        axis->setTickPen(QPen(p.color(QPalette::Mid)));
        axis->setSubTickPen(QPen(p.color(QPalette::Mid)));
        axis->setTickLabelColor(p.color(QPalette::WindowText));
        axis->setLabelColor(p.color(QPalette::WindowText));
        axis->grid()->setPen(QPen(faint(p, 28), 1, Qt::DotLine));
        axis->grid()->setSubGridPen(QPen(faint(p, 12), 1, Qt::DotLine));
        axis->grid()->setZeroLinePen(QPen(faint(p, 28)));
    }
}

// A legend inside an axis rect covers data, so it gets a backing; one in a
// row of its own stays bare.
void styleLegend(QCPLegend* legend, const QPalette& p) {
    legend->setTextColor(p.color(QPalette::WindowText));
    if (dynamic_cast<QCPLayoutInset*>(legend->layout())) {
        QColor fill = p.color(QPalette::Base);
        fill.setAlpha(220);
        legend->setBrush(fill);
        legend->setBorderPen(QPen(p.color(QPalette::Mid)));
    } else {
        legend->setBrush(Qt::NoBrush);
        legend->setBorderPen(Qt::NoPen);
    }
}

} // namespace

ThemedPlot::ThemedPlot(QWidget* parent) : QCustomPlot(parent) {}

QCPTextElement* ThemedPlot::titleElement() {
    if (!title_) {
        title_ = new QCPTextElement(this);
        plotLayout()->insertRow(0);
        plotLayout()->addElement(0, 0, title_);
        plotLayout()->setRowStretchFactor(0, 0.001);
    }
    return title_;
}

void ThemedPlot::refresh() {
    applyTheme();
    replot(rpQueuedReplot);
}

void ThemedPlot::applyTheme() {
    const QPalette p = palette();
    setBackground(p.color(QPalette::Base));
    QFont bold = font();
    bold.setBold(true);
    // Every element in the layout, axis rects' insets included: panels that
    // subclasses add are styled without their help.
    for (QCPLayoutElement* element : plotLayout()->elements(true)) {
        if (auto* rect = qobject_cast<QCPAxisRect*>(element)) {
            styleAxisRect(rect, p);
        } else if (auto* legend = qobject_cast<QCPLegend*>(element)) {
            styleLegend(legend, p);
        } else if (auto* title = qobject_cast<QCPTextElement*>(element)) {
            title->setFont(bold);
            title->setTextColor(p.color(QPalette::WindowText));
        }
    }
    for (int i = 0; i < itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(item(i)))
            text->setColor(p.color(QPalette::WindowText));
    applyExtraTheme(p);
}

void ThemedPlot::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) refresh();
}

} // namespace ts::gui
