#include "studies/PruneSummary.h"

#include <QDir>
#include <QObject>

#include "common/Format.h"

namespace ts::gui {
namespace {

QString latencyText(double median_ms, double spread_ms) {
    if (!(median_ms > 0)) return QStringLiteral("–");
    return QObject::tr("%1 ms (IQR %2)").arg(median_ms, 0, 'f', 2).arg(spread_ms, 0, 'f', 2);
}

double share(int64_t part, int64_t whole) {
    return whole > 0 ? double(part) / double(whole) : 0;
}

} // namespace

QString pruneMethodText(const PruneOptions& p) {
    const QString method = p.structured ? QObject::tr("output channels by L%1 norm").arg(p.norm)
                                        : QObject::tr("L1 unstructured");
    return QObject::tr("%1, %2, amount %3, %4")
        .arg(method, p.global ? QObject::tr("global") : QObject::tr("per layer"))
        .arg(p.amount, 0, 'g', 3)
        .arg(p.include_linear ? QObject::tr("conv + fc weights") : QObject::tr("conv weights"));
}

QString pruneSummaryHtml(const PruneStudyResult& r, const QString& dir) {
    const QString model = QString::fromStdString(r.model).toHtmlEscaped();
    const QString where = QDir::toNativeSeparators(dir).toHtmlEscaped();
    QString text = QObject::tr("<b>Pruning %1</b> (%2) — %3<br>")
                       .arg(model.isEmpty() ? QObject::tr("weights") : model,
                            pruneMethodText(r.prune).toHtmlEscaped(), where);
    text += QObject::tr("Accuracy <b>%1 → %2</b> (%3 test images) · latency, batch %4: "
                        "<b>%5 → %6</b> · sparsity of the pruned layers <b>%7 → %8</b>")
                .arg(format::percent(r.before.accuracy), format::percent(r.after.accuracy))
                .arg(r.after.samples)
                .arg(r.latency_batch)
                .arg(latencyText(r.latency_before_ms, r.latency_before_spread_ms),
                     latencyText(r.latency_after_ms, r.latency_after_spread_ms),
                     format::percent(share(r.zerosBefore(), r.params())),
                     format::percent(share(r.zerosAfter(), r.params())));
    if (!r.verdict.empty())
        text += QStringLiteral("<br>") + QString::fromStdString(r.verdict).toHtmlEscaped();
    return text;
}

} // namespace ts::gui
