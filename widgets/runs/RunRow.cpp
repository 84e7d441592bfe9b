#include "runs/RunRow.h"

#include <QDir>
#include <QFileInfo>

#include "report/RunDirectory.h"

namespace ts::gui {

RunRow runRowFrom(const RunRecord& r) {
    RunRow row;
    const ExperimentConfig& c = r.info.config;
    const RunSummary& s = r.summary;
    row.dir = QString::fromStdString(r.dir.string());
    row.name = QString::fromStdString(c.name);
    row.status = QString::fromLatin1(toString(s.status));
    row.error = QString::fromStdString(s.error);
    row.model = QString::fromStdString(c.model);
    row.dataset = QString::fromStdString(c.dataset);
    row.device = QString::fromStdString(c.device);
    row.precision = QString::fromStdString(c.precision);
    row.batch_size = c.batch_size;
    row.threads = r.info.env.intra_op_threads;
    row.epochs = s.epochs_completed;
    row.steps = s.steps_completed;
    const auto known = [](double v) {
        return v > 0 ? v : std::numeric_limits<double>::quiet_NaN();
    };
    row.images_per_sec = known(s.median_images_per_sec);
    row.step_ms = known(s.median_step_ms);
    row.epoch_time_s = known(s.mean_epoch_time_s);
    row.total_time_s = known(s.total_time_s);
    row.peak_rss_bytes = s.peak_rss_bytes;
    row.peak_tensor_bytes = s.peak_tensor_bytes;
    row.peak_device_bytes = s.peak_device_bytes;
    row.train_accuracy = s.final_train_accuracy;
    row.val_accuracy = s.best_val_accuracy;
    row.has_trace = r.hasTrace();
    return row;
}

RunRow readRunRow(const QString& dir) {
    RunRow row;
    try {
        row = runRowFrom(loadRun(dir.toStdString(), false));
    } catch (const std::exception& error) {
        row.dir = dir;
        row.name = QFileInfo(dir).fileName();
        row.status = QStringLiteral("unreadable");
        row.error = QString::fromUtf8(error.what());
    }
    row.dir = QDir::cleanPath(dir);
    row.modified =
        QFileInfo(QDir(dir).filePath(QString::fromLatin1(run_files::kRunJson))).lastModified();
    return row;
}

} // namespace ts::gui
