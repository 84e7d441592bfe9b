#include "studies/LadderPanel.h"

#include <QDir>

#include "studies/LadderChart.h"

namespace ts::gui {

LadderPanel::LadderPanel(QWidget* parent)
    : StudyPanel(new LadderTableModel, new LadderChart, tr("The running rung, step by step"),
                 parent) {}

LadderChart* LadderPanel::chart() const {
    return static_cast<LadderChart*>(charts_);
}

void LadderPanel::showCharts(const LadderResult& result) {
    chart()->setResult(result);
}

void LadderPanel::addRung(const LadderRungUpdate& rung) {
    running_.rows.push_back(rung.row);
    running_.baseline_images_per_sec = rung.baseline_images_per_sec;
    running_.best_images_per_sec = rung.best_images_per_sec;
    if (!shows_running_) return showRunning();
    result_.rows.push_back(rung.row);
    result_.baseline_images_per_sec = rung.baseline_images_per_sec;
    result_.best_images_per_sec = rung.best_images_per_sec;
    model_->appendRows({rung.row});
    showCharts(result_);
    resizeTable();
}

QString LadderPanel::title() const {
    const LadderResult& r = result_;
    if (r.rows.empty()) return tr("Optimization ladder → %1").arg(QDir::toNativeSeparators(dir_));
    QString verdict;
    if (!r.baseline_failed() && r.baseline_images_per_sec > 0)
        verdict = tr(": best %1 images/s, %2× the baseline")
                      .arg(r.best_images_per_sec, 0, 'f', 1)
                      .arg(r.best_images_per_sec / r.baseline_images_per_sec, 0, 'f', 2);
    return tr("<b>Optimization ladder of %1</b>%2 — %3")
        .arg(QString::fromStdString(r.spec.base.name).toHtmlEscaped(), verdict,
             QDir::toNativeSeparators(dir_).toHtmlEscaped());
}

bool LadderPanel::exportPng(const QString& path, QString* error) {
    return saveChartPng(chart(), path, error);
}

} // namespace ts::gui
