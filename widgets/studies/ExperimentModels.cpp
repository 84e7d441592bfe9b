#include "studies/ExperimentModels.h"

#include <cmath>

#include "common/Format.h"

namespace ts::gui {
namespace {

bool measured(const PointResult& r) {
    return r.outcome != PointOutcome::Skipped && r.summary.steps_completed > 0;
}

QVariant positive(double value) {
    return std::isfinite(value) && value > 0 ? QVariant(value) : QVariant();
}

QString bytesText(int64_t bytes) {
    return bytes > 0 ? format::bytes(double(bytes)) : QStringLiteral("–");
}

QString rateText(double value) {
    return std::isfinite(value) && value > 0 ? format::number(value, 4) : QStringLiteral("–");
}

QString msText(double value) {
    return std::isfinite(value) && value > 0 ? format::duration(value) : QStringLiteral("–");
}

QString cellText(const std::string& text) {
    return QString::fromStdString(text);
}

template <typename Row> using Col = TableColumn<Row>;

// Columns every point result has, read through `result` from the row type.
template <typename Row> Col<Row> stepColumn(const PointResult& (*result)(const Row&)) {
    return Col<Row>{QObject::tr("Step"), QObject::tr("Median step time"),
                    [result](const Row& r) {
                        const PointResult& p = result(r);
                        return measured(p) ? positive(p.summary.median_step_ms) : QVariant();
                    },
                    [result](const Row& r) {
                        const PointResult& p = result(r);
                        return measured(p) ? msText(p.summary.median_step_ms) : QStringLiteral("–");
                    }};
}

template <typename Row> Col<Row> memoryColumn(const PointResult& (*result)(const Row&)) {
    return Col<Row>{
        QObject::tr("Memory"),
        QObject::tr("What the point needed above the idle process: peak device allocation on "
                    "CUDA, resident-set growth on the host"),
        [result](const Row& r) {
            const int64_t b = result(r).memory_bytes;
            return b > 0 ? QVariant(qint64(b)) : QVariant();
        },
        [result](const Row& r) { return bytesText(result(r).memory_bytes); }};
}

template <typename Row> Col<Row> statusColumn(const PointResult& (*result)(const Row&)) {
    return Col<Row>{QObject::tr("Status"),
                    QObject::tr("How the run ended"),
                    [result](const Row& r) { return QVariant(outcomeText(result(r))); },
                    {},
                    false};
}

const PointResult& sweepResult(const SweepRow& r) {
    return r.result;
}
const PointResult& rungResult(const RungRow& r) {
    return r.result;
}

} // namespace

QString outcomeText(const PointResult& r) {
    if (r.outcome == PointOutcome::Skipped && r.message.find("cancelled") != std::string::npos)
        return QObject::tr("cancelled");
    if (r.outcome == PointOutcome::Failed && r.message.rfind("cancelled", 0) == 0)
        return QObject::tr("stopped");
    return QString::fromLatin1(toString(r.outcome));
}

SweepTableModel::SweepTableModel(QObject* parent)
    : TableModel<SweepRow>(
          {
              Col<SweepRow>{tr("Point"), tr("Run order (the point_<i> directory)"),
                            [](const SweepRow& r) { return QVariant(qint64(r.point.index)); }},
              Col<SweepRow>{tr("Values"),
                            tr("The swept keys of this point"),
                            [](const SweepRow& r) { return QVariant(cellText(r.point.label())); },
                            {},
                            false},
              statusColumn<SweepRow>(sweepResult),
              Col<SweepRow>{tr("images/s"),
                            tr("Median images per second, warm-up excluded: the geometric mean "
                               "over the point's rounds, with its confidence interval"),
                            [](const SweepRow& r) {
                                return measured(r.result) ? positive(r.imagesPerSec()) : QVariant();
                            },
                            [](const SweepRow& r) {
                                if (!measured(r.result)) return QStringLiteral("–");
                                QString text = rateText(r.imagesPerSec());
                                if (r.level.confidence > 0)
                                    text += QStringLiteral(" (%1 … %2)")
                                                .arg(r.level.low, 0, 'f', 1)
                                                .arg(r.level.high, 0, 'f', 1);
                                return text;
                            }},
              Col<SweepRow>{tr("vs best"),
                            tr("Gain against the fastest point, paired by round, with its "
                               "interval; \"within noise\" where the interval holds 0"),
                            [](const SweepRow& r) {
                                return r.best                    ? QVariant(0.0)
                                       : r.vs_best.hasInterval() ? QVariant(r.vs_best.gain)
                                                                 : QVariant();
                            },
                            [](const SweepRow& r) {
                                if (r.best) return tr("best");
                                if (!r.vs_best.hasInterval()) return QStringLiteral("–");
                                return cellText(formatGain(r.vs_best)) +
                                       (r.vs_best.withinNoise() ? tr(" within noise") : QString());
                            }},
              stepColumn<SweepRow>(sweepResult),
              Col<SweepRow>{tr("Data"), tr("Median time waiting for the batch"),
                            [](const SweepRow& r) {
                                return measured(r.result)
                                           ? positive(r.result.summary.median_phases.data_ms)
                                           : QVariant();
                            },
                            [](const SweepRow& r) {
                                return measured(r.result)
                                           ? msText(r.result.summary.median_phases.data_ms)
                                           : QStringLiteral("–");
                            }},
              memoryColumn<SweepRow>(sweepResult),
              Col<SweepRow>{tr("Predicted"),
                            tr("Memory the guard predicted from the smaller points before "
                               "running this one"),
                            [](const SweepRow& r) {
                                return r.predicted_bytes > 0 ? QVariant(qint64(r.predicted_bytes))
                                                             : QVariant();
                            },
                            [](const SweepRow& r) { return bytesText(r.predicted_bytes); }},
              Col<SweepRow>{tr("Note"),
                            tr("Error, out-of-memory text or why it was skipped"),
                            [](const SweepRow& r) { return QVariant(cellText(r.result.message)); },
                            {},
                            false},
          },
          parent) {}

QVariant SweepTableModel::toolTip(const SweepRow& row, int column) const {
    if (column == Point || column == Values)
        return QString::fromStdString(row.result.run_dir.string());
    return TableModel<SweepRow>::toolTip(row, column);
}

LadderTableModel::LadderTableModel(QObject* parent)
    : TableModel<RungRow>(
          {
              Col<RungRow>{tr("Rung"),
                           tr("The optimization tried"),
                           [](const RungRow& r) { return QVariant(cellText(r.title)); },
                           {},
                           false},
              Col<RungRow>{tr("Change"),
                           tr("Config change on top of the best so far"),
                           [](const RungRow& r) {
                               return QVariant(r.change.empty() ? QStringLiteral("–")
                                                                : cellText(r.change));
                           },
                           {},
                           false},
              statusColumn<RungRow>(rungResult),
              Col<RungRow>{tr("images/s"),
                           tr("Median images per second, warm-up excluded: the geometric mean "
                              "over the rung's rounds"),
                           [](const RungRow& r) {
                               return measured(r.result) ? positive(r.imagesPerSec()) : QVariant();
                           },
                           [](const RungRow& r) {
                               return measured(r.result) ? rateText(r.imagesPerSec())
                                                         : QStringLiteral("–");
                           }},
              Col<RungRow>{tr("Speed-up"), tr("images/s over the baseline's"),
                           [](const RungRow& r) {
                               return measured(r.result) ? positive(r.speedup) : QVariant();
                           },
                           [](const RungRow& r) {
                               return measured(r.result) && r.speedup > 0
                                          ? QStringLiteral("%1×").arg(r.speedup, 0, 'f', 2)
                                          : QStringLiteral("–");
                           }},
              Col<RungRow>{tr("Gain (interval)"),
                           tr("Over the best so far: geometric mean of the rounds' ratios and its "
                              "confidence interval; kept only when the whole interval clears the "
                              "margin"),
                           [](const RungRow& r) {
                               return measured(r.result) && r.interval.rounds > 0
                                          ? QVariant(r.interval.gain)
                                          : QVariant();
                           },
                           [](const RungRow& r) {
                               return measured(r.result) && r.interval.rounds > 0 &&
                                              r.id != "baseline"
                                          ? cellText(formatGain(r.interval))
                                          : QStringLiteral("–");
                           }},
              stepColumn<RungRow>(rungResult),
              memoryColumn<RungRow>(rungResult),
              Col<RungRow>{tr("Accuracy"), tr("Validation accuracy after the same number of steps"),
                           [](const RungRow& r) {
                               const double a = r.result.accuracy();
                               return measured(r.result) && std::isfinite(a) ? QVariant(a)
                                                                             : QVariant();
                           },
                           [](const RungRow& r) {
                               return measured(r.result) ? format::percent(r.result.accuracy())
                                                         : QStringLiteral("–");
                           }},
              Col<RungRow>{tr("Kept"), tr("Kept when it beat the best so far by the margin"),
                           [](const RungRow& r) { return QVariant(r.kept ? 1 : 0); },
                           [](const RungRow& r) { return r.kept ? tr("yes") : tr("no"); }},
              Col<RungRow>{tr("Decision"),
                           tr("Why it was kept, dropped or skipped"),
                           [](const RungRow& r) {
                               return QVariant(cellText(r.ran ? r.decision : r.skip_reason));
                           },
                           {},
                           false},
          },
          parent) {}

QVariant LadderTableModel::toolTip(const RungRow& row, int column) const {
    if (column == Rung && !row.result.run_dir.empty())
        return QString::fromStdString(row.result.run_dir.string());
    return TableModel<RungRow>::toolTip(row, column);
}

} // namespace ts::gui
