#pragma once
// The Experiments view's controls: sweep, ladder or prune, the swept key(s)
// and their values, measured and warm-up steps, the pruning inputs (shown in
// Prune mode), Start / Stop / Open… / Export PNG… and a one-line status.
#include <QWidget>

#include "studies/ExperimentRequest.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace ts::gui {

class PruneControls;

class ExperimentControls : public QWidget {
    Q_OBJECT
public:
    explicit ExperimentControls(QWidget* parent = nullptr);

    ExperimentRequest request() const;
    void setRequest(const ExperimentRequest& request);

    // While an experiment runs: Start off, Stop on, the inputs locked.
    void setRunning(bool running);
    // Start stays disabled with this reason as tooltip (empty = allowed).
    void setStartBlocked(const QString& reason);
    void setStatus(const QString& text);
    QString status() const;

    QPushButton* startButton() const { return start_; }
    QPushButton* stopButton() const { return stop_; }
    PruneControls* pruneControls() const { return prune_; }

signals:
    void startClicked();
    void stopClicked();
    void openClicked();
    void exportClicked();

private:
    void updateEnabled();

    QComboBox* mode_;
    QComboBox* key_;
    QLineEdit* values_;
    QComboBox* key2_;
    QLineEdit* values2_;
    QSpinBox* steps_;
    QSpinBox* warmup_;
    QSpinBox* rounds_;
    PruneControls* prune_;
    QPushButton* start_;
    QPushButton* stop_;
    QPushButton* open_;
    QPushButton* export_;
    QLabel* status_;
    QString blocked_;
    bool running_ = false;
};

} // namespace ts::gui
