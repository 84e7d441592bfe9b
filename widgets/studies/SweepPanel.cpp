#include "studies/SweepPanel.h"

#include <algorithm>

#include <QDir>
#include <QStringList>

#include "studies/SweepCharts.h"

namespace ts::gui {
namespace {

QString keysOf(const SweepResult& r) {
    QStringList keys;
    for (const SweepAxis& axis : r.spec.axes)
        keys << QString::fromStdString(axis.key);
    return keys.join(QStringLiteral(" × "));
}

} // namespace

SweepPanel::SweepPanel(QWidget* parent)
    : StudyPanel(new SweepTableModel, new SweepCharts, tr("The running point, step by step"),
                 parent) {}

SweepCharts* SweepPanel::charts() const {
    return static_cast<SweepCharts*>(charts_);
}

void SweepPanel::showCharts(const SweepResult& result) {
    charts()->setResult(result);
}

void SweepPanel::addRow(const SweepRow& row) {
    // Later rounds come back with the same point: replace it.
    const auto same = [&row](const SweepRow& r) { return r.point.index == row.point.index; };
    const auto known = std::find_if(running_.rows.begin(), running_.rows.end(), same);
    if (known != running_.rows.end()) {
        *known = row;
        running_.rounds = std::max(running_.rounds, int(row.round_images_per_sec.size()));
    } else {
        running_.rows.push_back(row);
    }
    if (!shows_running_) return showRunning();
    result_ = running_;
    // The whole table again: a point's speed-up and the scaling columns
    // depend on the other points (sweepTableSpec).
    model_->setRows(result_.rows);
    showCharts(result_);
    resizeTable();
}

QString SweepPanel::title() const {
    const SweepResult& r = result_;
    if (r.rows.empty()) return tr("Sweep → %1").arg(QDir::toNativeSeparators(dir_));
    return tr("<b>Sweep of %1</b> over %2: %3 of %4 points completed — %5")
        .arg(QString::fromStdString(r.spec.base.name).toHtmlEscaped(), keysOf(r).toHtmlEscaped())
        .arg(r.completed())
        .arg(r.rows.size())
        .arg(QDir::toNativeSeparators(dir_).toHtmlEscaped());
}

bool SweepPanel::exportPng(const QString& path, QString* error) {
    return saveChartPng(charts(), path, error, 2); // throughput and memory side by side
}

} // namespace ts::gui
