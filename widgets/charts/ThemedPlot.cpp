#include "charts/ThemedPlot.h"

#include <algorithm>
#include <vector>

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

// The most columns, up to `max_columns`, in which entries of these widths,
// placed row by row, fit `room` pixels: each column as wide as its widest
// entry (QCustomPlot's grid gives a column what its widest cell needs).
int columnsThatFit(const std::vector<int>& widths, int room, int spacing, int max_columns) {
    for (int columns = std::min<int>(max_columns, int(widths.size())); columns > 1; --columns) {
        std::vector<int> column(size_t(columns), 0);
        for (size_t i = 0; i < widths.size(); ++i)
            column[i % size_t(columns)] = std::max(column[i % size_t(columns)], widths[i]);
        int needed = spacing * (columns - 1);
        for (const int w : column)
            needed += w;
        if (needed <= room) return columns;
    }
    return widths.empty() ? max_columns : 1;
}

// A title that wraps at spaces when the plot is narrower than its text:
// QCustomPlot's own asks for its whole width, and the plot clips it at both
// ends ("Collectives: data transfer / synchronizing, average step" beside
// another chart). It spans the plot, so the plot's width is its room.
class WrappingTitle : public QCPTextElement {
public:
    explicit WrappingTitle(QCustomPlot* plot) : QCPTextElement(plot) {
        setTextFlags(Qt::AlignCenter | Qt::TextWordWrap);
    }

protected:
    QSize minimumOuterSizeHint() const override {
        QSize text = textSize();
        text.rwidth() += mMargins.left() + mMargins.right();
        text.rheight() += mMargins.top() + mMargins.bottom();
        return text;
    }
    QSize maximumOuterSizeHint() const override {
        return {QWIDGETSIZE_MAX, minimumOuterSizeHint().height()};
    }

private:
    QSize textSize() const {
        const QFontMetrics metrics(mFont);
        const QSize whole = metrics.boundingRect(0, 0, 0, 0, Qt::TextDontClip, mText).size();
        const int room = mParentPlot->viewport().width() - mMargins.left() - mMargins.right();
        if (whole.width() <= room || room <= 0) return whole;
        const QRect wrapped =
            metrics.boundingRect(QRect(0, 0, room, QWIDGETSIZE_MAX), Qt::TextWordWrap, mText);
        return {std::min(wrapped.width(), room), wrapped.height()};
    }
};

} // namespace

ThemedPlot::ThemedPlot(QWidget* parent) : QCustomPlot(parent) {
    // Before every replot, which lays the plot out: entries come and go
    // (a rank joins) and the font and width change between replots.
    connect(this, &QCustomPlot::beforeReplot, this, [this] { fitLegendColumns(width()); });
}

QCPTextElement* ThemedPlot::titleElement() {
    if (!title_) {
        title_ = new WrappingTitle(this);
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

void ThemedPlot::legendInRow(int row, int max_columns) {
    if (auto* inset = qobject_cast<QCPLayoutInset*>(legend->layout())) inset->take(legend);
    plotLayout()->insertRow(row);
    plotLayout()->addElement(row, 0, legend);
    plotLayout()->setRowStretchFactor(row, 0.001);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(max_columns);
    legend->setVisible(true);
    legend_max_columns_ = max_columns;
}

void ThemedPlot::setMinimumHeightBesidesLegend(int besides_legend, int at_least) {
    height_besides_legend_ = besides_legend;
    height_at_least_ = at_least;
}

void ThemedPlot::fitLegendColumns(int width) {
    if (legend_max_columns_ == 0) return;
    std::vector<int> widths; // the entries in order; the grid's last row may have gaps
    int tallest = 0;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (const QCPAbstractLegendItem* item = legend->item(i)) {
            const QSize hint = item->minimumOuterSizeHint(); // measures its text each call
            widths.push_back(hint.width());
            tallest = std::max(tallest, hint.height());
        }
    }
    const QMargins margins = legend->margins();
    const int room = width - margins.left() - margins.right() - 2 * legend->borderPen().width();
    const int columns = columnsThatFit(widths, room, legend->columnSpacing(), legend_max_columns_);
    if (height_besides_legend_ > 0) {
        const int rows = (int(widths.size()) + columns - 1) / columns;
        const int height = std::max(height_at_least_, height_besides_legend_ +
                                                          rows * (tallest + legend->rowSpacing()));
        // Later, not during the replot: a taller minimum resizes the plot at
        // once, and QCustomPlot ignores the replot that resize asks for.
        if (height != minimumHeight())
            QMetaObject::invokeMethod(
                this, [this, height] { setMinimumHeight(height); }, Qt::QueuedConnection);
    }
    if (columns == legend->wrap()) return;
    legend->setWrap(columns);
    legend->setFillOrder(legend->fillOrder(), true); // setWrap alone leaves entries where they are
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
