#include "operators/TopOpsChart.h"

#include <QAbstractItemModel>
#include <QFontMetrics>

#include "common/ItemRoles.h"
#include "common/ThemePalette.h"

namespace ts::gui {
namespace {

constexpr int kMaxNameChars = 30;

} // namespace

TopOpsChart::TopOpsChart(QAbstractItemModel* model, int nameColumn, int fallbackColumn,
                         QWidget* parent)
    : ThemedPlot(parent), model_(model), name_column_(nameColumn), fallback_column_(fallbackColumn),
      column_(fallbackColumn), bars_(new QCPBars(yAxis, xAxis)) {
    bars_->setWidth(0.7);
    bars_->setBrush(seriesColor(0));
    bars_->setPen(Qt::NoPen);
    yAxis->setRangeReversed(true); // the largest bar on top
    connect(this, &QCustomPlot::afterLayout, this, &TopOpsChart::fitValueLabels);
    yAxis->grid()->setVisible(false);
    xAxis->setTickLabels(false);
    setMinimumWidth(260);
    connect(model_, &QAbstractItemModel::modelReset, this, &TopOpsChart::rebuild);
    connect(model_, &QAbstractItemModel::layoutChanged, this, &TopOpsChart::rebuild);
    connect(model_, &QAbstractItemModel::rowsInserted, this, &TopOpsChart::rebuild);
    connect(model_, &QAbstractItemModel::rowsRemoved, this, &TopOpsChart::rebuild);
    rebuild();
}

void TopOpsChart::setTopN(int n) {
    top_n_ = qMax(1, n);
    rebuild();
}

int TopOpsChart::barCount() const {
    return bars_->dataCount();
}

void TopOpsChart::setColumn(int column) {
    const QVariant probe =
        model_->rowCount() > 0 ? model_->index(0, column).data(SortRole) : QVariant();
    const bool numeric = probe.isValid()
                             ? probe.canConvert<double>() && probe.typeId() != QMetaType::QString
                             : column != name_column_;
    column_ = numeric ? column : fallback_column_;
    rebuild();
}

void TopOpsChart::rebuild() {
    for (QCPItemText* label : labels_)
        removeItem(label);
    labels_.clear();
    QVector<double> keys, values;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const int rows = qMin(top_n_, model_->rowCount());
    double max_value = 0;
    for (int row = 0; row < rows; ++row) {
        const QVariant raw = model_->index(row, column_).data(SortRole);
        const double value = raw.isValid() ? raw.toDouble() : 0.0;
        keys << row;
        values << value;
        max_value = qMax(max_value, value);
        QString name = model_->index(row, name_column_).data().toString();
        if (name.size() > kMaxNameChars) name = name.left(kMaxNameChars - 1) + QChar(0x2026);
        ticker->addTick(row, name);
        auto* label = new QCPItemText(this);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->position->setType(QCPItemPosition::ptPlotCoords);
        label->position->setAxes(xAxis, yAxis);
        label->position->setCoords(value, row);
        label->setText(QStringLiteral(" ") + model_->index(row, column_).data().toString());
        label->setClipToAxisRect(false);
        labels_ << label;
    }
    bars_->setData(keys, values, true);
    yAxis->setTicker(ticker);
    yAxis->setRange(-0.6, qMax(1, rows) - 0.4);
    max_value_ = max_value;
    xAxis->setRange(0, max_value > 0 ? max_value * 1.35 : 1.0); // refined by fitValueLabels
    titleElement()->setText(
        tr("Top %1 by %2").arg(rows).arg(model_->headerData(column_, Qt::Horizontal).toString()));
    refresh();
}

// The value labels sit right of the bars: once the layout knows the axis
// width, lengthen the axis so the widest label fits (a fixed margin cut them
// off in narrow charts).
void TopOpsChart::fitValueLabels() {
    const int axis_px = axisRect()->width();
    if (axis_px <= 0 || max_value_ <= 0 || labels_.isEmpty()) return;
    int widest = 0;
    for (const QCPItemText* label : labels_)
        widest = qMax(widest, QFontMetrics(label->font()).horizontalAdvance(label->text()));
    const double bar_share = qBound(0.2, 1.0 - (widest + 8.0) / axis_px, 0.95);
    xAxis->setRange(0, max_value_ / bar_share);
}

void TopOpsChart::applyExtraTheme(const QPalette&) {
    // Horizontal bars of unrelated operators: the value axis needs no sub-ticks.
    for (QCPAxis* axis : {xAxis, yAxis})
        axis->setSubTickPen(Qt::NoPen);
}

} // namespace ts::gui
