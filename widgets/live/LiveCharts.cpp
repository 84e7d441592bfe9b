#include "live/LiveCharts.h"

#include <cmath>
#include <iterator>

#include "common/Format.h"
#include "common/ThemePalette.h"
#include "util/ProcessMemory.h"

namespace ts::gui {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

QString stepHeader(const StepRecord& s) {
    return QObject::tr("step %1 (epoch %2, batch %3)")
        .arg(s.global_step)
        .arg(s.epoch + 1)
        .arg(s.step);
}

QColor faded(QColor color, int alpha) {
    color.setAlpha(alpha);
    return color;
}

} // namespace

HistoryChart::HistoryChart(const QString& title, const RunHistory& history, QWidget* parent)
    : LiveChart(title, parent), history_(history) {
    xAxis->setLabel(tr("step"));
}

void HistoryChart::reset() {
    for (int i = 0; i < graphCount(); ++i)
        graph(i)->data()->clear();
    for (int i = 0; i < plottableCount(); ++i)
        if (auto* bars = qobject_cast<QCPBars*>(plottable(i))) bars->data()->clear();
    setFollowing(true);
}

// ---------------------------------------------------------------- throughput

ThroughputChart::ThroughputChart(const RunHistory& history, QWidget* parent)
    : HistoryChart(tr("Throughput"), history, parent) {
    raw_ = addSeries(tr("images/s"), faded(seriesColor(0), 110));
    raw_->setPen(QPen(faded(seriesColor(0), 110), 1.0));
    smooth_ = addSeries(tr("median of %1").arg(kThroughputWindow), seriesColor(0));
    profiled_ = addSeries(tr("profiled step"), seriesColor(2));
    profiled_->setLineStyle(QCPGraph::lsNone);
    profiled_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 6));
    slow_ = addSeries(tr("slow step"), seriesColor(3));
    slow_->setLineStyle(QCPGraph::lsNone);
    slow_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangleInverted, 9));
    yAxis->setLabel(tr("images/s"));
    setHoverText([this](double key) { return hover(key); });
}

void ThroughputChart::append(size_t first_step, size_t) {
    for (size_t i = first_step; i < history_.steps.size(); ++i) {
        const StepRecord& s = history_.steps[i];
        const double key = double(s.global_step);
        raw_->addData(key, s.images_per_sec);
        recent_.push(s.images_per_sec);
        smooth_->addData(key, recent_.median());
        if (s.profiled) profiled_->addData(key, s.images_per_sec);
        if (s.slow) slow_->addData(key, s.images_per_sec);
    }
}

void ThroughputChart::reset() {
    HistoryChart::reset();
    recent_.clear();
}

QString ThroughputChart::hover(double key) const {
    const StepRecord* s = history_.stepNear(key);
    if (!s) return {};
    return stepHeader(*s) +
           QStringLiteral("\n%1\nstep time %2%3%4")
               .arg(format::rate(s->images_per_sec, tr("images/s")), format::duration(s->step_ms),
                    s->profiled ? tr("\nprofiled") : QString(),
                    s->slow ? tr("\nslower than the recent steps beyond their noise") : QString());
}

// ----------------------------------------------------------------- step time

namespace {
struct Phase {
    const char* name;
    double PhaseTimes::*value;
};
const Phase kPhases[] = {
    {"data", &PhaseTimes::data_ms},           {"copy", &PhaseTimes::copy_ms},
    {"forward", &PhaseTimes::forward_ms},     {"backward", &PhaseTimes::backward_ms},
    {"optimizer", &PhaseTimes::optimizer_ms}, {"other", &PhaseTimes::other_ms}};
} // namespace

StepTimeChart::StepTimeChart(const RunHistory& history, QWidget* parent)
    : HistoryChart(tr("Step time by phase"), history, parent) {
    int index = 0;
    for (const Phase& phase : kPhases) {
        const QColor color = seriesColor(index == 5 ? 9 : index);
        QCPGraph* layer = addSeries(QString::fromLatin1(phase.name), color);
        layer->setPen(QPen(color.darker(115), 1.0));
        layer->setBrush(faded(color, 170));
        // Each layer is the running sum up to its phase, filled down to the one below.
        if (!layers_.empty()) layer->setChannelFillGraph(layers_.back());
        layers_.push_back(layer);
        ++index;
    }
    yAxis->setLabel(tr("ms"));
    setHoverText([this](double key) { return hover(key); });
}

void StepTimeChart::append(size_t first_step, size_t) {
    for (size_t i = first_step; i < history_.steps.size(); ++i) {
        const StepRecord& s = history_.steps[i];
        double sum = 0;
        for (size_t p = 0; p < layers_.size(); ++p) {
            sum += s.phases.*kPhases[p].value;
            layers_[p]->addData(double(s.global_step), sum);
        }
    }
}

QString StepTimeChart::hover(double key) const {
    const StepRecord* s = history_.stepNear(key);
    if (!s) return {};
    QString text = stepHeader(*s) + tr("\ntotal %1").arg(format::duration(s->step_ms));
    const double total = s->phases.total();
    for (auto it = std::rbegin(kPhases); it != std::rend(kPhases); ++it) {
        const double ms = s->phases.*(it->value);
        text += QStringLiteral("\n%1: %2 (%3)")
                    .arg(QString::fromLatin1(it->name), format::duration(ms),
                         format::percent(total > 0 ? ms / total : NAN));
    }
    return text;
}

// -------------------------------------------------------------------- memory

MemoryChart::MemoryChart(const RunHistory& history, QWidget* parent)
    : HistoryChart(tr("Memory"), history, parent) {
    tensor_ = addSeries(tr("tensors"), seriesColor(0));
    peak_ = addSeries(tr("tensor peak"), faded(seriesColor(0), 140));
    peak_->setPen(QPen(faded(seriesColor(0), 140), 1.0, Qt::DashLine));
    rss_ = addSeries(tr("RSS"), seriesColor(1));
    device_ = addSeries(tr("device"), seriesColor(4));
    device_->setVisible(false);
    device_->removeFromLegend();
    faults_ = addSeries(tr("page faults"), seriesColor(6), yAxis2);
    yAxis->setLabel(tr("MiB"));
    yAxis2->setVisible(true);
    yAxis2->setLabel(tr("page faults / step"));
    setHoverText([this](double key) { return hover(key); });
}

void MemoryChart::append(size_t first_step, size_t) {
    for (size_t i = first_step; i < history_.steps.size(); ++i) {
        const StepRecord& s = history_.steps[i];
        const double key = double(s.global_step);
        tensor_->addData(key, double(s.tensor_bytes) / kMiB);
        peak_->addData(key, double(s.tensor_peak_bytes) / kMiB);
        rss_->addData(key, double(s.rss_bytes) / kMiB);
        device_->addData(key, double(s.device_bytes) / kMiB);
        if (s.page_faults >= 0) faults_->addData(key, double(s.page_faults)); // -1: not recorded
        if (s.device_bytes > 0 && !device_->visible()) {
            device_->setVisible(true);
            device_->addToLegend();
        }
    }
}

void MemoryChart::reset() {
    HistoryChart::reset();
    device_->setVisible(false);
    device_->removeFromLegend();
}

QString MemoryChart::hover(double key) const {
    const StepRecord* s = history_.stepNear(key);
    if (!s) return {};
    QString text = stepHeader(*s) + tr("\ntensors %1 (peak %2)\nRSS %3")
                                        .arg(format::bytes(double(s->tensor_bytes)),
                                             format::bytes(double(s->tensor_peak_bytes)),
                                             format::bytes(double(s->rss_bytes)));
    if (s->page_faults >= 0)
        text += tr("\npage faults %1 (%2 of pages)")
                    .arg(s->page_faults)
                    .arg(format::bytes(double(s->page_faults) * kPageBytes));
    if (s->device_bytes > 0)
        text += tr("\ndevice %1 (peak %2)")
                    .arg(format::bytes(double(s->device_bytes)),
                         format::bytes(double(s->device_peak_bytes)));
    return text;
}

// -------------------------------------------------------- memory by category

namespace {
// One hue per category in kMemoryCategoryFields' order; the peak line's is 0.
const int kCategoryColors[] = {3, 8, 5, 2, 6, 9};
static_assert(std::size(kCategoryColors) == std::size(kMemoryCategoryFields));

// The peak the categories fill: the CUDA allocator's on a GPU, else the CPU tracker's.
int64_t stepPeakBytes(const StepRecord& s) {
    return s.device_peak_bytes > 0 ? s.device_peak_bytes : s.tensor_peak_bytes;
}
} // namespace

MemoryCategoryChart::MemoryCategoryChart(const RunHistory& history, QWidget* parent)
    : HistoryChart(tr("Memory by category"), history, parent) {
    for (size_t i = 0; i < std::size(kMemoryCategoryFields); ++i) {
        const QColor color = seriesColor(kCategoryColors[i]);
        QCPGraph* layer = addSeries(QString::fromLatin1(kMemoryCategoryFields[i].name), color);
        layer->setPen(QPen(color.darker(115), 1.0));
        layer->setBrush(faded(color, 170));
        // Each layer is the running sum up to its category, filled down to the one below.
        if (!layers_.empty()) layer->setChannelFillGraph(layers_.back());
        layers_.push_back(layer);
    }
    peak_ = addSeries(tr("step peak"), seriesColor(0));
    peak_->setPen(QPen(seriesColor(0), 1.6, Qt::DashLine));
    yAxis->setLabel(tr("MiB"));
    setHoverText([this](double key) { return hover(key); });
}

void MemoryCategoryChart::append(size_t first_step, size_t) {
    for (size_t i = first_step; i < history_.steps.size(); ++i) {
        const StepRecord& s = history_.steps[i];
        // Runs recorded before the categories were have none: nothing to stack.
        if (s.memory.total() == 0) continue;
        const double key = double(s.global_step);
        double sum = 0;
        for (size_t c = 0; c < layers_.size(); ++c) {
            sum += double(s.memory.*kMemoryCategoryFields[c].bytes) / kMiB;
            layers_[c]->addData(key, sum);
        }
        peak_->addData(key, double(stepPeakBytes(s)) / kMiB);
    }
}

QString MemoryCategoryChart::hover(double key) const {
    const StepRecord* s = history_.stepNear(key);
    if (!s || s->memory.total() == 0) return {};
    const int64_t stacked = s->memory.total(), peak = stepPeakBytes(*s);
    QString text =
        stepHeader(*s) + tr("\nstacked %1, step peak %2")
                             .arg(format::bytes(double(stacked)), format::bytes(double(peak)));
    if (stacked > peak) text += tr("\n(gradients and activations were not all alive at once)");
    // Top of the stack first, as the layers lie.
    for (auto it = std::rbegin(kMemoryCategoryFields); it != std::rend(kMemoryCategoryFields); ++it)
        text +=
            QStringLiteral("\n%1: %2")
                .arg(QString::fromLatin1(it->name), format::bytes(double(s->memory.*(it->bytes))));
    return text;
}

// ---------------------------------------------------------------------- loss

LossChart::LossChart(const RunHistory& history, QWidget* parent)
    : HistoryChart(tr("Loss and accuracy"), history, parent) {
    yAxis2->setVisible(true);
    yAxis2->setRange(0, 100);
    yAxis2->setLabel(tr("accuracy %"));
    setFitSecondAxis(false);
    loss_ = addSeries(tr("loss"), seriesColor(2));
    loss_->setPen(QPen(seriesColor(2), 1.2));
    accuracy_ =
        addSeries(tr("accuracy, last %1 batches").arg(kAccuracyWindow), seriesColor(4), yAxis2);
    val_accuracy_ = addSeries(tr("val accuracy"), seriesColor(6), yAxis2);
    val_accuracy_->setLineStyle(QCPGraph::lsLine);
    val_accuracy_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 7));
    yAxis->setLabel(tr("loss"));
    setHoverText([this](double key) { return hover(key); });
}

void LossChart::append(size_t first_step, size_t first_epoch) {
    for (size_t i = first_step; i < history_.steps.size(); ++i) {
        const StepRecord& s = history_.steps[i];
        loss_->addData(double(s.global_step), s.loss);
        if (s.batch_size > 0) {
            recent_.push(100.0 * double(s.correct) / s.batch_size);
            accuracy_->addData(double(s.global_step), recent_.mean());
        }
    }
    for (size_t i = first_epoch; i < history_.epochs.size(); ++i) {
        const EpochRecord& e = history_.epochs[i];
        if (e.has_val && std::isfinite(e.val_accuracy))
            val_accuracy_->addData(history_.lastStepOfEpoch(e.epoch), 100.0 * e.val_accuracy);
    }
}

void LossChart::reset() {
    HistoryChart::reset();
    recent_.clear();
}

QString LossChart::hover(double key) const {
    const StepRecord* s = history_.stepNear(key);
    if (!s) return {};
    QString text =
        stepHeader(*s) +
        tr("\nloss %1\nbatch accuracy %2\nlr %3")
            .arg(format::number(s->loss, 4),
                 format::percent(s->batch_size ? double(s->correct) / s->batch_size : NAN),
                 format::number(s->lr, 3));
    for (const EpochRecord& e : history_.epochs)
        if (e.epoch == s->epoch && e.has_val)
            text += tr("\nepoch %1 val accuracy %2")
                        .arg(e.epoch + 1)
                        .arg(format::percent(e.val_accuracy));
    return text;
}

// --------------------------------------------------------------------- epoch

EpochChart::EpochChart(const RunHistory& history, QWidget* parent)
    : HistoryChart(tr("Epoch time"), history, parent) {
    train_ = new QCPBars(xAxis, yAxis);
    train_->setName(tr("training"));
    val_ = new QCPBars(xAxis, yAxis);
    val_->setName(tr("validation"));
    for (auto [bars, color] :
         {std::pair{train_, seriesColor(0)}, std::pair{val_, seriesColor(1)}}) {
        bars->setBrush(faded(color, 200));
        bars->setPen(QPen(color.darker(120)));
        bars->setWidth(0.6);
    }
    val_->moveAbove(train_);
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    xAxis->setTicker(ticker);
    xAxis->setLabel(tr("epoch"));
    yAxis->setLabel(tr("s"));
    // It shares its cell with memory by category (LiveView): a bar per epoch
    // reads in less height than a curve over the steps.
    setMinimumHeightBesidesLegend(95, 120);
    setHoverText([this](double key) { return hover(key); });
}

void EpochChart::append(size_t, size_t first_epoch) {
    for (size_t i = first_epoch; i < history_.epochs.size(); ++i) {
        const EpochRecord& e = history_.epochs[i];
        train_->addData(e.epoch + 1, e.epoch_time_s);
        val_->addData(e.epoch + 1, e.val_time_s);
    }
}

QString EpochChart::hover(double key) const {
    const EpochRecord* e = history_.epochNear(key);
    if (!e) return {};
    QString text = tr("epoch %1: %2 training, %3 validation\n%4\ntrain loss %5, accuracy %6")
                       .arg(e->epoch + 1)
                       .arg(format::seconds(e->epoch_time_s), format::seconds(e->val_time_s),
                            format::rate(e->images_per_sec, tr("images/s")),
                            format::number(e->train_loss, 4), format::percent(e->train_accuracy));
    if (e->has_val)
        text += tr("\nval loss %1, accuracy %2")
                    .arg(format::number(e->val_loss, 4), format::percent(e->val_accuracy));
    return text;
}

} // namespace ts::gui
