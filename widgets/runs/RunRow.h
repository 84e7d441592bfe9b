#pragma once
// One run directory as the Runs view lists and compares it.
#include <cstdint>
#include <limits>

#include <QDateTime>
#include <QString>

namespace ts {
struct RunRecord;
}

namespace ts::gui {

struct RunRow {
    QString dir;
    QString name;
    QDateTime modified; // run.json's last write (a run in progress keeps updating it)
    QString status;     // running / completed / cancelled / failed / unreadable
    QString error;      // why unreadable or failed
    QString model;
    QString dataset;
    QString device;
    QString precision;
    int batch_size = 0;
    int threads = 0;
    int epochs = 0; // completed
    int64_t steps = 0;
    double images_per_sec = std::numeric_limits<double>::quiet_NaN(); // steady-state median
    double step_ms = std::numeric_limits<double>::quiet_NaN();
    double epoch_time_s = std::numeric_limits<double>::quiet_NaN(); // mean
    double total_time_s = std::numeric_limits<double>::quiet_NaN();
    int64_t peak_rss_bytes = 0;
    int64_t peak_tensor_bytes = 0;
    int64_t peak_device_bytes = 0;
    double train_accuracy = std::numeric_limits<double>::quiet_NaN(); // 0..1
    double val_accuracy = std::numeric_limits<double>::quiet_NaN();   // best, 0..1
    bool has_trace = false;
};

RunRow runRowFrom(const RunRecord& record);
// Reads dir/run.json; unreadable runs come back with status "unreadable" and the error.
RunRow readRunRow(const QString& dir);

} // namespace ts::gui
