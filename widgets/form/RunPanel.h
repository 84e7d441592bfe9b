#pragma once
// Start / Stop buttons, the progress bar and the ETA of the current run.
#include <QWidget>

#include "training/LiveUpdate.h"

class QLabel;
class QProgressBar;
class QPushButton;

namespace ts::gui {

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(QWidget* parent = nullptr);

    QPushButton* startButton() const { return start_; }
    QPushButton* stopButton() const { return stop_; }

public slots:
    // Start stays disabled while the form has issues (reason as tooltip).
    void setStartBlocked(const QString& reason);
    // `starting`: what the status says until the first step (default: the model and data).
    void setRunning(bool running, const QString& starting = {});
    void setProgress(const ts::gui::RunProgress& progress);
    void setStopping();
    void setFinished(const ts::gui::RunOutcome& outcome);

signals:
    void startClicked();
    void stopClicked();

private:
    void updateButtons();
    QPushButton* start_;
    QPushButton* stop_;
    QProgressBar* bar_;
    QLabel* status_;
    QString blocked_reason_;
    bool running_ = false;
};

} // namespace ts::gui
