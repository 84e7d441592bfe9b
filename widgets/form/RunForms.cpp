#include "form/RunForms.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QLabel>
#include <QRadioButton>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "form/ExperimentForm.h"
#include "form/ScriptForm.h"

namespace ts::gui {

QString runKindName(RunKind kind) {
    return kind == RunKind::Script ? QStringLiteral("script") : QStringLiteral("model");
}

RunKind runKindFromName(const QString& name) {
    return name == QLatin1String("script") ? RunKind::Script : RunKind::Model;
}

RunForms::RunForms(ExperimentForm* model, ScriptForm* script, QWidget* parent)
    : QWidget(parent), model_(model), script_(script),
      model_button_(new QRadioButton(tr("Trainscope model"))),
      script_button_(new QRadioButton(tr("Python script"))), stack_(new QStackedWidget) {
    model_button_->setObjectName(QStringLiteral("runKindModel"));
    script_button_->setObjectName(QStringLiteral("runKindScript"));
    model_button_->setToolTip(tr("Train one of Trainscope's models (or a TorchScript module) "
                                 "with LibTorch, as the form below sets it up."));
    script_button_->setToolTip(tr("Run your own PyTorch training script under Trainscope's "
                                  "probe: live charts, scheduled traces, every view."));
    auto* group = new QButtonGroup(this);
    group->addButton(model_button_);
    group->addButton(script_button_);
    model_button_->setChecked(true);
    stack_->addWidget(model_);
    stack_->addWidget(script_);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(6, 6, 6, 0);
    row->addWidget(new QLabel(tr("Run:")));
    row->addWidget(model_button_);
    row->addWidget(script_button_);
    row->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(row);
    layout->addWidget(stack_, 1);
    connect(script_button_, &QRadioButton::toggled, this, [this](bool script) {
        stack_->setCurrentWidget(script ? static_cast<QWidget*>(script_) : model_);
        emit kindChanged(kind());
    });
}

RunKind RunForms::kind() const {
    return script_button_->isChecked() ? RunKind::Script : RunKind::Model;
}

void RunForms::setKind(RunKind kind) {
    kindButton(kind)->setChecked(true);
}

QRadioButton* RunForms::kindButton(RunKind kind) const {
    return kind == RunKind::Script ? script_button_ : model_button_;
}

void RunForms::setRunning(bool running) {
    model_button_->setEnabled(!running);
    script_button_->setEnabled(!running);
    model_->setRunning(running);
    script_->setRunning(running);
}

} // namespace ts::gui
