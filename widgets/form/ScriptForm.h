#pragma once
// The Experiment dock's second kind of run, "Python script": the user's own
// training script (or module) under Trainscope's probe, with its
// interpreter, arguments, working folder, environment, ranks and the
// torch.profiler schedule. Problems (scriptrun::checkScriptOptions) are
// flagged on their fields; Start waits for an interpreter that has torch.
// While a script runs, its console and requests show below the fields.
#include <string>
#include <vector>

#include <QTimer>
#include <QWidget>

#include "scriptrun/ScriptLaunch.h"

class QCheckBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QRadioButton;
class QSpinBox;
class QSplitter;

namespace ts::gui {

class InterpreterField;
class PathEdit;
class ScriptConsole;

class ScriptForm : public QWidget {
    Q_OBJECT
public:
    explicit ScriptForm(QWidget* parent = nullptr);

    // The form as typed (what is remembered between sessions).
    scriptrun::ScriptRunOptions typedOptions() const;
    void setOptions(const scriptrun::ScriptRunOptions& options);
    // What runs: as typed, with the working folder defaulting to the script's.
    scriptrun::ScriptRunOptions options() const;

    // Problems of the options as sentences; empty: fine.
    const std::vector<ConfigIssue>& issues() const { return issues_; }
    // Why Start must wait (issues, an interpreter being checked or without
    // torch); empty: ready.
    QString startBlockedReason() const;
    // Re-checks now (edits are re-checked after a short pause while typing).
    void revalidate();

    void setRunning(bool running);
    InterpreterField* interpreter() const { return python_; }
    ScriptConsole* console() const { return console_; }

public slots:
    // A script run began: the console empties and shows.
    void beginRun();

signals:
    // startBlockedReason() may have changed.
    void readinessChanged();

private:
    void buildScriptSection(QFormLayout* form);
    void buildProfilingSection(QFormLayout* form);
    void onEdited();
    void updateDependentFields();
    void markIssues();
    QWidget* fieldOf(const ConfigIssue& issue) const;

    InterpreterField* python_;
    QRadioButton* use_script_ = nullptr;
    QRadioButton* use_module_ = nullptr;
    PathEdit* script_ = nullptr;
    QLineEdit* module_ = nullptr;
    QLineEdit* args_ = nullptr;
    PathEdit* cwd_ = nullptr;
    QPlainTextEdit* env_ = nullptr;
    QSpinBox* ranks_ = nullptr;
    QCheckBox* profile_ = nullptr;
    QSpinBox* skip_first_ = nullptr;
    QSpinBox* wait_ = nullptr;
    QSpinBox* warmup_ = nullptr;
    QSpinBox* active_ = nullptr;
    QSpinBox* repeat_ = nullptr;
    QCheckBox* shapes_ = nullptr;
    QCheckBox* memory_ = nullptr;
    QCheckBox* stacks_ = nullptr;
    QSpinBox* memory_every_ = nullptr;
    QCheckBox* catch_slow_ = nullptr;
    QWidget* fields_ = nullptr; // every input, disabled while a script runs
    QLabel* issues_label_ = nullptr;
    QSplitter* splitter_ = nullptr;
    ScriptConsole* console_;
    std::vector<ConfigIssue> issues_;
    std::vector<std::pair<QWidget*, QString>> own_tooltips_; // of the flagged fields
    QTimer revalidate_timer_;
    bool running_ = false;
};

} // namespace ts::gui
