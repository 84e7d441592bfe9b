#pragma once
// The Experiment dock's forms: which kind of run Start starts, chosen at
// the top ("Run: Trainscope model | Python script"), and that kind's form
// below (ExperimentForm or ScriptForm).
#include <QWidget>

class QRadioButton;
class QStackedWidget;

namespace ts::gui {

class ExperimentForm;
class ScriptForm;

enum class RunKind { Model, Script };
QString runKindName(RunKind kind);            // "model", "script"
RunKind runKindFromName(const QString& name); // unknown name: Model

class RunForms : public QWidget {
    Q_OBJECT
public:
    RunForms(ExperimentForm* model, ScriptForm* script, QWidget* parent = nullptr);

    RunKind kind() const;
    void setKind(RunKind kind);
    // Neither the kind nor the shown form's fields change while a run runs.
    void setRunning(bool running);
    QRadioButton* kindButton(RunKind kind) const;

signals:
    void kindChanged(ts::gui::RunKind kind);

private:
    ExperimentForm* model_;
    ScriptForm* script_;
    QRadioButton* model_button_;
    QRadioButton* script_button_;
    QStackedWidget* stack_;
};

} // namespace ts::gui
