#include "diff/AlignedStepsWidget.h"

#include <algorithm>
#include <cstdlib>

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include "common/Format.h"

namespace ts::gui {
namespace {

constexpr double kGutter = 120; // the row labels
constexpr double kMargin = 12;
constexpr double kRowHeight = 34;
constexpr double kRowGap = 40; // room for the lines joining the pairs
constexpr double kTop = 26;    // the caption

} // namespace

AlignedStepsWidget::AlignedStepsWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QSize AlignedStepsWidget::sizeHint() const {
    return {900, int(kTop + 2 * kRowHeight + kRowGap + kMargin)};
}

QSize AlignedStepsWidget::minimumSizeHint() const {
    return {400, sizeHint().height()};
}

void AlignedStepsWidget::setAlignment(StepAlignment alignment, const QString& label_a,
                                      const QString& label_b,
                                      std::map<std::string, double> impacts) {
    alignment_ = std::move(alignment);
    impacts_ = std::move(impacts);
    labels_[0] = label_a;
    labels_[1] = label_b;
    update();
}

double AlignedStepsWidget::rowTop(int side) const {
    return kTop + side * (kRowHeight + kRowGap);
}

double AlignedStepsWidget::scaleX(int64_t ns) const {
    const int64_t longest =
        std::max<int64_t>({alignment_.a.durationNs(), alignment_.b.durationNs(), 1});
    return kGutter + double(ns) / double(longest) * (width() - kGutter - kMargin);
}

QRectF AlignedStepsWidget::opRect(int side, const AlignedOp& op) const {
    const double x0 = scaleX(op.start_ns), x1 = scaleX(op.end_ns);
    return QRectF(x0, rowTop(side), std::max(1.0, x1 - x0), kRowHeight);
}

QColor AlignedStepsWidget::opColour(const AlignedOp& op) const {
    const QColor neutral = palette().color(QPalette::Mid);
    if (op.pair < 0 || size_t(op.pair) >= alignment_.pairs.size() || !op.changed) return neutral;
    const QColor more(214, 96, 77), less(67, 147, 195);
    const auto impact = impacts_.find(op.name);
    if (impact != impacts_.end()) return impact->second > 0 ? more : less;
    const AlignedPair& pair = alignment_.pairs[size_t(op.pair)];
    if (!pair.changed) return neutral;
    return pair.delta_ns > 0 ? more : less;
}

void AlignedStepsWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    p.setPen(pal.color(QPalette::Text));
    const AlignedStep* steps[2] = {&alignment_.a, &alignment_.b};
    if (steps[0]->durationNs() <= 0 && steps[1]->durationNs() <= 0) {
        p.drawText(rect(), Qt::AlignCenter, tr("Compare two documents to align one step of each."));
        return;
    }
    p.drawText(QRectF(kGutter, 4, width() - kGutter - kMargin, kTop - 6), Qt::AlignLeft,
               tr("Red: B spends more there (slower, or only in B); blue: less; grey: within "
                  "the noise threshold"));
    // Lines joining each matched pair's starts: how far B's schedule moved.
    QColor join = pal.color(QPalette::Text);
    join.setAlpha(70);
    p.setPen(QPen(join, 1));
    for (const AlignedPair& pair : alignment_.pairs)
        if (pair.matched && pair.has_a && pair.has_b)
            p.drawLine(QPointF(scaleX(pair.a_start_ns), rowTop(0) + kRowHeight),
                       QPointF(scaleX(pair.b_start_ns), rowTop(1)));
    for (int side = 0; side < 2; ++side) {
        const AlignedStep& step = *steps[side];
        const QRectF label(4, rowTop(side), kGutter - 8, kRowHeight);
        p.setPen(pal.color(QPalette::Text));
        p.drawText(label, Qt::AlignVCenter | Qt::AlignLeft,
                   tr("%1 step %2\n%3")
                       .arg(labels_[side], QString::fromStdString(step.label),
                            format::durationNs(step.durationNs())));
        p.fillRect(
            QRectF(scaleX(0), rowTop(side), scaleX(step.durationNs()) - scaleX(0), kRowHeight),
            pal.color(QPalette::AlternateBase));
        for (const AlignedOp& op : step.ops) {
            const QRectF box = opRect(side, op);
            p.fillRect(box, opColour(op));
            if (box.width() > 40) {
                p.setPen(pal.color(QPalette::Base));
                p.drawRect(box);
                p.setPen(pal.color(QPalette::Text));
                p.drawText(box.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft,
                           p.fontMetrics().elidedText(QString::fromStdString(op.name),
                                                      Qt::ElideRight, int(box.width() - 6)));
            }
        }
    }
}

std::pair<int, int> AlignedStepsWidget::opAt(QPointF pos) const {
    const AlignedStep* steps[2] = {&alignment_.a, &alignment_.b};
    for (int side = 0; side < 2; ++side) {
        const auto& ops = steps[side]->ops;
        for (size_t i = 0; i < ops.size(); ++i)
            if (opRect(side, ops[i]).adjusted(-1, 0, 1, 0).contains(pos)) return {side, int(i)};
    }
    return {-1, -1};
}

QString AlignedStepsWidget::describeOp(int side, int op) const {
    const AlignedStep& step = side == 0 ? alignment_.a : alignment_.b;
    if (side < 0 || op < 0 || size_t(op) >= step.ops.size()) return {};
    const AlignedOp& o = step.ops[size_t(op)];
    QString text =
        tr("%1 (%2)\n%3 from the step's start")
            .arg(QString::fromStdString(o.name), format::durationNs(o.end_ns - o.start_ns),
                 format::durationNs(o.start_ns));
    if (o.pair >= 0 && size_t(o.pair) < alignment_.pairs.size()) {
        const AlignedPair& pair = alignment_.pairs[size_t(o.pair)];
        if (!pair.has_a || !pair.has_b)
            text += pair.has_b ? tr("\nonly in B") : tr("\nonly in A");
        else
            text += tr("\nB − A: %1%2%3")
                        .arg(pair.delta_ns >= 0 ? QStringLiteral("+") : QStringLiteral("−"),
                             format::durationNs(std::abs(pair.delta_ns)),
                             pair.changed ? QString() : tr(" (within the noise threshold)"));
    }
    return text;
}

bool AlignedStepsWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto [side, op] = opAt(help->pos());
        const QString text = describeOp(side, op);
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace ts::gui
