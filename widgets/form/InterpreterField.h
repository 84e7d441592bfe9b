#pragma once
// The Python a user's script runs with: a path (empty: the python3 on PATH,
// named in the field), checked off the GUI thread for its version and
// torch's (scriptrun::checkInterpreter starts it once: a few seconds) when
// the field is first shown, after a pause in typing, and on Check. What the
// check found shows below the field: the versions, or the error in red.
#include <string>

#include <QTimer>
#include <QWidget>

#include "jobs/OneShot.h"
#include "scriptrun/ScriptLaunch.h"

class QLabel;
class QToolButton;

namespace ts::gui {

class PathEdit;

class InterpreterField : public QWidget {
    Q_OBJECT
public:
    enum class State { Unchecked, Checking, Usable, Unusable };

    explicit InterpreterField(QWidget* parent = nullptr);

    QString path() const; // as typed; empty: python3 on PATH
    void setPath(const QString& path);
    // What runs the script: the path typed, else "python3" (looked up on PATH).
    std::string python() const;
    State state() const { return state_; }
    // What the last finished check of python() found.
    const scriptrun::InterpreterInfo& info() const { return info_; }
    // The line below the field: versions, "checking…" or the error sentence.
    QString statusText() const;
    PathEdit* edit() const { return edit_; }

public slots:
    // Checks python() now (again after a running check, if it changed meanwhile).
    void check();

signals:
    void edited();
    void stateChanged();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void onChecked(scriptrun::InterpreterInfo info);
    void setState(State state);

    PathEdit* edit_;
    QToolButton* check_button_;
    QLabel* status_;
    QTimer pause_; // after the last keystroke
    State state_ = State::Unchecked;
    std::string checking_; // the interpreter the running check asks
    scriptrun::InterpreterInfo info_;
    OneShot<scriptrun::InterpreterInfo> job_; // last: joined first
};

} // namespace ts::gui
