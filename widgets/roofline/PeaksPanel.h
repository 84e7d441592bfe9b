#pragma once
// The machine's peaks for the roofline: fp32 and reduced-precision GFLOP/s
// and memory GB/s, typed in or measured by core's micro-benchmarks
// (measurePeaks) on a worker thread. Kept in AppSettings between sessions.
// Measuring is one call with one result and no progress (jobs/OneShot).
#include <QWidget>

#include "analysis/Roofline.h"
#include "jobs/OneShot.h"
#include "runners/PeakBenchmark.h"

class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace ts::gui {

class AppSettings;

struct PeakMeasurement {
    MachinePeaks peaks;
    QString error; // the benchmark could not run
};

class PeaksPanel : public QWidget {
    Q_OBJECT
public:
    explicit PeaksPanel(AppSettings& settings, QWidget* parent = nullptr);

    // From the spin boxes (source "measured" until one is edited, then "entered").
    MachinePeaks peaks() const;
    bool hasPeaks() const;
    // Fills the boxes and keeps them in the settings.
    void setPeaks(const MachinePeaks& peaks);
    // The device the benchmark measures ("cpu", "cuda:0") and its sizes (tests shrink them).
    void setMeasureOptions(const PeakOptions& options);
    PeakOptions measureOptions() const { return options_; }
    bool isMeasuring() const { return measuring_; }

public slots:
    void measure();

signals:
    void peaksChanged(const ts::MachinePeaks& peaks);
    void measuringChanged(bool measuring);
    void measureFailed(const QString& message);

private:
    void onEdited();
    void onMeasured(const PeakMeasurement& m);
    void updateRidge();

    AppSettings& settings_;
    QDoubleSpinBox* fp32_;
    QDoubleSpinBox* low_;
    QDoubleSpinBox* bandwidth_;
    QPushButton* measure_;
    QLabel* ridge_;
    PeakOptions options_;
    QString source_ = QStringLiteral("entered");
    QString low_name_ = QStringLiteral("bf16");
    QStringList notes_;
    bool measuring_ = false;       // from measure() until the result is applied
    OneShot<PeakMeasurement> job_; // last: joined first
};

} // namespace ts::gui
