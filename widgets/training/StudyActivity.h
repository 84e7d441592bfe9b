#pragma once
// Whether a sweep, ladder or pruning study is running, for the window (Start
// waits, quitting asks, the experiment panel stays) without it knowing the
// view that runs them; and the window's request to stop one when it quits.
#include <QObject>

namespace ts::gui {

class StudyActivity : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    bool running() const { return running_; }

public slots:
    void setRunning(bool running) {
        if (running == running_) return;
        running_ = running;
        emit runningChanged(running);
    }
    void stop() { emit stopRequested(); }

signals:
    void runningChanged(bool running);
    void stopRequested();

private:
    bool running_ = false;
};

} // namespace ts::gui
