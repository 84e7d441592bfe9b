#pragma once
// The six charts of the Live view. Each reads the shared RunHistory and only
// appends what is new on every tick; none of them replots by itself.
#include <cstddef>
#include <vector>

#include "live/LiveChart.h"
#include "live/RollingWindow.h"
#include "live/RunHistory.h"

namespace ts::gui {

class HistoryChart : public LiveChart {
    Q_OBJECT
public:
    HistoryChart(const QString& title, const RunHistory& history, QWidget* parent = nullptr);
    // Adds history.steps[first_step..] and history.epochs[first_epoch..].
    virtual void append(size_t first_step, size_t first_epoch) = 0;
    // Forgets all data (a new run starts, or another run is opened).
    virtual void reset();

protected:
    const RunHistory& history_;
};

// images/s per step, its trailing median, and the profiled and slow steps marked.
class ThroughputChart : public HistoryChart {
    Q_OBJECT
public:
    explicit ThroughputChart(const RunHistory& history, QWidget* parent = nullptr);
    void append(size_t first_step, size_t first_epoch) override;
    void reset() override;

private:
    QString hover(double key) const;
    static constexpr int kThroughputWindow = 9;
    QCPGraph* raw_;
    QCPGraph* smooth_;
    QCPGraph* profiled_;
    QCPGraph* slow_; // a script's steps caught as slow (catch_slow)
    RollingWindow recent_{kThroughputWindow};
};

// Step time stacked by phase: data, copy, forward, backward, optimizer, other.
class StepTimeChart : public HistoryChart {
    Q_OBJECT
public:
    explicit StepTimeChart(const RunHistory& history, QWidget* parent = nullptr);
    void append(size_t first_step, size_t first_epoch) override;

private:
    QString hover(double key) const;
    std::vector<QCPGraph*> layers_;
};

// Live tensor bytes, their per-step peak, process RSS and device memory; on the
// right axis the page faults of each step (memory the kernel had to map and
// zero again, which retain_host_memory avoids).
class MemoryChart : public HistoryChart {
    Q_OBJECT
public:
    explicit MemoryChart(const RunHistory& history, QWidget* parent = nullptr);
    void append(size_t first_step, size_t first_epoch) override;
    void reset() override;

private:
    QString hover(double key) const;
    QCPGraph* tensor_;
    QCPGraph* peak_;
    QCPGraph* rss_;
    QCPGraph* device_;
    QCPGraph* faults_;
};

// Each step's memory by category on the training device, stacked (what lives
// the whole run at the bottom, the rest of the step's peak on top), and the
// step's peak there: the CPU tensor peak, or the CUDA allocator's on a GPU.
// Where the stack rises above the peak, gradients and activations were not
// all alive at once (backward frees activations as it makes gradients).
class MemoryCategoryChart : public HistoryChart {
    Q_OBJECT
public:
    explicit MemoryCategoryChart(const RunHistory& history, QWidget* parent = nullptr);
    void append(size_t first_step, size_t first_epoch) override;
    // The stacked layers, bottom first (kMemoryCategoryFields' order).
    const std::vector<QCPGraph*>& layers() const { return layers_; }
    QCPGraph* peak() const { return peak_; }

private:
    QString hover(double key) const;
    std::vector<QCPGraph*> layers_;
    QCPGraph* peak_;
};

// Loss (left axis), running batch accuracy and per-epoch validation accuracy (right, %).
class LossChart : public HistoryChart {
    Q_OBJECT
public:
    explicit LossChart(const RunHistory& history, QWidget* parent = nullptr);
    void append(size_t first_step, size_t first_epoch) override;
    void reset() override;

private:
    QString hover(double key) const;
    static constexpr int kAccuracyWindow = 20;
    QCPGraph* loss_;
    QCPGraph* accuracy_;
    QCPGraph* val_accuracy_;
    RollingWindow recent_{kAccuracyWindow};
};

// Training and validation time per epoch, stacked bars.
class EpochChart : public HistoryChart {
    Q_OBJECT
public:
    explicit EpochChart(const RunHistory& history, QWidget* parent = nullptr);
    void append(size_t first_step, size_t first_epoch) override;

private:
    QString hover(double key) const;
    QCPBars* train_;
    QCPBars* val_;
};

} // namespace ts::gui
