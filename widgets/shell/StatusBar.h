#pragma once
// The status bar: the device, threads and math libraries in use (LibTorch's
// probe of the machine, once it has loaded) on the right, run progress and
// messages on the left, and while a trace opens its progress and Cancel
// (LoadIndicator).
#include <QStatusBar>

#include "records/EnvironmentInfo.h"
#include "training/LiveUpdate.h"

class QLabel;

namespace ts::gui {

class LoadIndicator;

class StatusBar : public QStatusBar {
    Q_OBJECT
public:
    // An environment not probed yet (no LibTorch version) says so.
    explicit StatusBar(const EnvironmentInfo& env, QWidget* parent = nullptr);
    void setEnvironment(const EnvironmentInfo& env);

    void setDevice(const QString& device);
    // Which LibTorch trains ("LibTorch 2.15.0 (CUDA 13.0, no GPU found)"), and
    // its details as the tooltip.
    void setLibTorch(const QString& label, const QString& details);
    QString environmentText() const;
    LoadIndicator* loadIndicator() const { return load_; }

public slots:
    void showProgress(const ts::gui::RunProgress& progress);

private:
    LoadIndicator* load_;
    QLabel* libtorch_;
    QLabel* device_;
    QLabel* threads_;
    QLabel* blas_;
    QLabel* onednn_;
};

} // namespace ts::gui
