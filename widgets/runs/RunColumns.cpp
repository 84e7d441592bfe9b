#include "runs/RunColumns.h"

#include <cmath>

#include <QLocale>

#include "common/Format.h"

namespace ts::gui::run_columns {
namespace {

QVariant knownNumber(double v) {
    return std::isfinite(v) ? QVariant(v) : QVariant();
}

Column text(const QString& header, const QString& tip, QString RunRow::*field) {
    return Column{header, tip, [field](const RunRow& r) { return QVariant(r.*field); }, {}, false};
}

Column integer(const QString& header, const QString& tip, int RunRow::*field) {
    return Column{header, tip, [field](const RunRow& r) { return QVariant(r.*field); }};
}

Column bytes(const QString& header, const QString& tip, int64_t RunRow::*field) {
    return Column{
        header, tip,
        [field](const RunRow& r) { return r.*field > 0 ? QVariant(qint64(r.*field)) : QVariant(); },
        [field](const RunRow& r) {
            return r.*field > 0 ? format::bytes(double(r.*field)) : QStringLiteral("–");
        }};
}

Column fraction(const QString& header, const QString& tip, double RunRow::*field) {
    return Column{header, tip, [field](const RunRow& r) { return knownNumber(r.*field); },
                  [field](const RunRow& r) { return format::percent(r.*field); }};
}

} // namespace

Column name() {
    return text(QObject::tr("Name"), QObject::tr("Experiment name"), &RunRow::name);
}
Column status() {
    return text(QObject::tr("Status"), QObject::tr("How the run ended"), &RunRow::status);
}
Column model() {
    return text(QObject::tr("Model"), {}, &RunRow::model);
}
Column dataset() {
    return text(QObject::tr("Dataset"), {}, &RunRow::dataset);
}
Column device() {
    return text(QObject::tr("Device"), {}, &RunRow::device);
}
Column precision() {
    return text(QObject::tr("Precision"), {}, &RunRow::precision);
}
Column directory() {
    return text(QObject::tr("Directory"), {}, &RunRow::dir);
}
Column batchSize() {
    return integer(QObject::tr("Batch"), QObject::tr("Batch size"), &RunRow::batch_size);
}
Column threads() {
    return integer(QObject::tr("Threads"), QObject::tr("Intra-op threads used"), &RunRow::threads);
}
Column epochs() {
    return integer(QObject::tr("Epochs"), QObject::tr("Epochs completed"), &RunRow::epochs);
}

Column modified() {
    return Column{
        QObject::tr("Modified"), QObject::tr("Last write of run.json"),
        [](const RunRow& r) { return QVariant(r.modified); },
        [](const RunRow& r) { return QLocale().toString(r.modified, QLocale::ShortFormat); },
        false};
}

Column steps() {
    return Column{QObject::tr("Steps"), QObject::tr("Training steps completed"),
                  [](const RunRow& r) { return QVariant(qint64(r.steps)); }};
}

Column imagesPerSec() {
    return Column{
        QObject::tr("Images/s"), QObject::tr("Steady-state median throughput"),
        [](const RunRow& r) { return knownNumber(r.images_per_sec); },
        [](const RunRow& r) { return format::rate(r.images_per_sec, QString()).trimmed(); }};
}

Column stepTime() {
    return Column{QObject::tr("Step time"), QObject::tr("Steady-state median step time"),
                  [](const RunRow& r) { return knownNumber(r.step_ms); },
                  [](const RunRow& r) { return format::duration(r.step_ms); }};
}

Column epochTime() {
    return Column{QObject::tr("Epoch time"), QObject::tr("Mean training time per epoch"),
                  [](const RunRow& r) { return knownNumber(r.epoch_time_s); },
                  [](const RunRow& r) { return format::seconds(r.epoch_time_s); }};
}

Column totalTime() {
    return Column{QObject::tr("Total time"), QObject::tr("Wall time of the whole run"),
                  [](const RunRow& r) { return knownNumber(r.total_time_s); },
                  [](const RunRow& r) { return format::seconds(r.total_time_s); }};
}

Column peakRss() {
    return bytes(QObject::tr("Peak RSS"), QObject::tr("Process resident memory"),
                 &RunRow::peak_rss_bytes);
}
Column peakTensors() {
    return bytes(QObject::tr("Peak tensors"), QObject::tr("Live CPU tensor bytes"),
                 &RunRow::peak_tensor_bytes);
}
Column peakDevice() {
    return bytes(QObject::tr("Peak device"), QObject::tr("CUDA allocator peak"),
                 &RunRow::peak_device_bytes);
}
Column trainAccuracy() {
    return fraction(QObject::tr("Train acc."), QObject::tr("Final training accuracy"),
                    &RunRow::train_accuracy);
}
Column valAccuracy() {
    return fraction(QObject::tr("Val acc."), QObject::tr("Best validation accuracy"),
                    &RunRow::val_accuracy);
}

Column hasTrace() {
    return Column{QObject::tr("Trace"), QObject::tr("The run has a profiler trace"),
                  [](const RunRow& r) { return QVariant(r.has_trace ? 1 : 0); },
                  [](const RunRow& r) { return r.has_trace ? QObject::tr("yes") : QString(); },
                  false};
}

} // namespace ts::gui::run_columns
