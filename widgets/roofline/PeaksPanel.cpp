#include "roofline/PeaksPanel.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>

#include "backend/TorchBackendLoader.h"
#include "common/AppSettings.h"
#include "common/Format.h"

namespace ts::gui {
namespace {

QDoubleSpinBox* rateBox(const QString& suffix, const QString& tip) {
    auto* box = new QDoubleSpinBox;
    box->setRange(0, 1e9);
    box->setDecimals(1);
    box->setSuffix(suffix);
    box->setSpecialValueText(QObject::tr("not set"));
    box->setToolTip(tip);
    box->setKeyboardTracking(false); // one update per finished edit
    box->setMinimumWidth(box->fontMetrics().horizontalAdvance(QStringLiteral("000000.0 GFLOP/s")));
    return box;
}

PeakMeasurement runBenchmark(PeakOptions options) {
    PeakMeasurement m;
    try {
        m.peaks = torchBackend().measurePeaks(options);
    } catch (const std::exception& e) {
        m.error = QString::fromUtf8(e.what());
    }
    return m;
}

} // namespace

PeaksPanel::PeaksPanel(AppSettings& settings, QWidget* parent)
    : QWidget(parent), settings_(settings),
      fp32_(rateBox(tr(" GFLOP/s"), tr("Peak fp32 compute (matrix multiply)"))),
      low_(rateBox(tr(" GFLOP/s"), tr("Peak reduced-precision compute: bf16 on a CPU, fp16 on "
                                      "CUDA; convolutions and matrix multiplications of bf16/fp16 "
                                      "runs are held against it (0 = unknown)"))),
      bandwidth_(rateBox(tr(" GB/s"), tr("Peak memory bandwidth (copy / add over large arrays)"))),
      measure_(new QPushButton(tr("Measure"))), ridge_(new QLabel),
      job_([this](const PeakMeasurement& m) { onMeasured(m); }) {
    measure_->setToolTip(tr("Measure this machine's peaks with micro-benchmarks (takes seconds)"));
    measure_->setObjectName(QStringLiteral("measurePeaks"));
    ridge_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // never widens the window
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Peaks: fp32")));
    layout->addWidget(fp32_);
    layout->addWidget(new QLabel(tr("bf16/fp16")));
    layout->addWidget(low_);
    layout->addWidget(new QLabel(tr("memory")));
    layout->addWidget(bandwidth_);
    layout->addWidget(measure_);
    layout->addWidget(ridge_, 1);

    const PeakSettings stored = settings_.rooflinePeaks();
    fp32_->setValue(stored.fp32_gflops);
    low_->setValue(stored.low_gflops);
    bandwidth_->setValue(stored.bandwidth_gbs);
    updateRidge();
    for (QDoubleSpinBox* box : {fp32_, low_, bandwidth_})
        connect(box, &QDoubleSpinBox::valueChanged, this, &PeaksPanel::onEdited);
    connect(measure_, &QPushButton::clicked, this, &PeaksPanel::measure);
}

MachinePeaks PeaksPanel::peaks() const {
    MachinePeaks p;
    p.fp32_gflops = fp32_->value();
    p.low_gflops = low_->value();
    p.low_precision = p.low_gflops > 0 ? low_name_.toStdString() : std::string();
    p.bandwidth_gbs = bandwidth_->value();
    p.device = options_.device;
    p.source = source_.toStdString();
    for (const QString& note : notes_)
        p.notes.push_back(note.toStdString());
    return p;
}

bool PeaksPanel::hasPeaks() const {
    return fp32_->value() > 0 && bandwidth_->value() > 0;
}

void PeaksPanel::setPeaks(const MachinePeaks& p) {
    {
        const QSignalBlocker a(fp32_), b(low_), c(bandwidth_);
        fp32_->setValue(p.fp32_gflops);
        low_->setValue(p.low_gflops);
        bandwidth_->setValue(p.bandwidth_gbs);
    }
    source_ = p.source.empty() ? QStringLiteral("entered") : QString::fromStdString(p.source);
    if (!p.low_precision.empty()) low_name_ = QString::fromStdString(p.low_precision);
    notes_.clear();
    for (const std::string& note : p.notes)
        notes_ << QString::fromStdString(note);
    settings_.setRooflinePeaks({p.fp32_gflops, p.low_gflops, p.bandwidth_gbs});
    updateRidge();
    emit peaksChanged(peaks());
}

void PeaksPanel::setMeasureOptions(const PeakOptions& options) {
    options_ = options;
    low_name_ =
        options.device.rfind("cuda", 0) == 0 ? QStringLiteral("fp16") : QStringLiteral("bf16");
}

void PeaksPanel::measure() {
    if (measuring_) return;
    measuring_ = true;
    measure_->setEnabled(false);
    measure_->setText(tr("Measuring …"));
    ridge_->setText(tr("Running matrix-multiply and memory benchmarks on %1 …")
                        .arg(QString::fromStdString(options_.device)));
    setCursor(Qt::BusyCursor);
    emit measuringChanged(true);
    job_.start([options = options_](const CancelFlag&) { return runBenchmark(options); });
}

void PeaksPanel::onMeasured(const PeakMeasurement& m) {
    measure_->setEnabled(true);
    measure_->setText(tr("Measure"));
    unsetCursor();
    // Measuring ends once the result is applied, not when the worker returns:
    // isMeasuring() and measuringChanged(false) then agree.
    if (m.error.isEmpty())
        setPeaks(m.peaks);
    else
        updateRidge();
    measuring_ = false;
    emit measuringChanged(false);
    if (!m.error.isEmpty()) emit measureFailed(m.error);
}

void PeaksPanel::onEdited() {
    source_ = QStringLiteral("entered");
    notes_.clear();
    settings_.setRooflinePeaks({fp32_->value(), low_->value(), bandwidth_->value()});
    updateRidge();
    emit peaksChanged(peaks());
}

void PeaksPanel::updateRidge() {
    const MachinePeaks p = peaks();
    if (!hasPeaks()) {
        ridge_->setText(tr("Enter the peaks or press Measure."));
        return;
    }
    const QString text = tr("ridge at %1 FLOP/byte (%2 peaks)")
                             .arg(format::number(p.ridge(), 3), QString::fromStdString(p.source));
    ridge_->setText(text);
    ridge_->setToolTip(notes_.isEmpty() ? text : notes_.join(QStringLiteral("\n")));
}

} // namespace ts::gui
