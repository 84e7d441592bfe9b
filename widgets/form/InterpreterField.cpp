#include "form/InterpreterField.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

#include "form/PathEdit.h"

namespace ts::gui {
namespace {

constexpr int kTypingPauseMs = 600;
// An interpreter whose `import torch` takes longer than this is reported as broken.
constexpr double kCheckTimeoutS = 60;
const char* const kDefaultPython = "python3";

} // namespace

InterpreterField::InterpreterField(QWidget* parent)
    : QWidget(parent), edit_(new PathEdit(PathEdit::Mode::File)), check_button_(new QToolButton),
      status_(new QLabel),
      job_([this](scriptrun::InterpreterInfo info) { onChecked(std::move(info)); }) {
    edit_->setObjectName(QStringLiteral("python"));
    const QString found = QStandardPaths::findExecutable(QString::fromLatin1(kDefaultPython));
    edit_->setPlaceholderText(found.isEmpty() ? tr("python3 (none on PATH: choose one)")
                                              : tr("python3 on PATH: %1").arg(found));
    edit_->setToolTip(tr("The Python of the environment the script runs in (a virtual "
                         "environment's bin/python); it needs torch."));
    check_button_->setText(tr("Check"));
    check_button_->setObjectName(QStringLiteral("checkPython"));
    check_button_->setToolTip(tr("Ask the interpreter for its Python and torch versions."));
    status_->setObjectName(QStringLiteral("pythonStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(edit_, 1);
    row->addWidget(check_button_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(row);
    layout->addWidget(status_);
    setFocusProxy(edit_);

    pause_.setSingleShot(true);
    pause_.setInterval(kTypingPauseMs);
    connect(&pause_, &QTimer::timeout, this, &InterpreterField::check);
    connect(check_button_, &QToolButton::clicked, this, &InterpreterField::check);
    connect(edit_, &PathEdit::pathEdited, this, [this] {
        setState(State::Unchecked);
        pause_.start();
        emit edited();
    });
}

QString InterpreterField::path() const {
    return edit_->path();
}

void InterpreterField::setPath(const QString& path) {
    if (path == edit_->path()) return;
    edit_->setPath(path);
    setState(State::Unchecked);
    if (isVisible()) check();
}

std::string InterpreterField::python() const {
    const QString typed = edit_->path();
    return typed.isEmpty() ? std::string(kDefaultPython) : typed.toStdString();
}

void InterpreterField::check() {
    pause_.stop();
    setState(State::Checking);
    if (job_.isRunning()) return; // onChecked sees the change and asks again
    checking_ = python();
    job_.start([python = checking_](const CancelFlag&) {
        return scriptrun::checkInterpreter(python, kCheckTimeoutS);
    });
}

void InterpreterField::onChecked(scriptrun::InterpreterInfo info) {
    if (checking_ != python()) { // edited meanwhile
        if (state_ == State::Checking) check();
        return;
    }
    if (info.python.empty()) info.error = "could not check the interpreter " + checking_;
    info_ = std::move(info);
    setState(info_.usable() ? State::Usable : State::Unusable);
}

void InterpreterField::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (state_ == State::Unchecked && !pause_.isActive()) check();
}

QString InterpreterField::statusText() const {
    return status_->text();
}

void InterpreterField::setState(State state) {
    state_ = state;
    switch (state) {
    case State::Unchecked:
        status_->setText(QString());
        break;
    case State::Checking:
        status_->setText(tr("Checking %1 …").arg(QString::fromStdString(python())));
        break;
    case State::Usable:
        status_->setText(tr("Python %1, torch %2")
                             .arg(QString::fromStdString(info_.python_version),
                                  QString::fromStdString(info_.torch_version)));
        break;
    case State::Unusable:
        status_->setText(QString::fromStdString(info_.error));
        break;
    }
    status_->setStyleSheet(state == State::Unusable ? QStringLiteral("color: #c0392b") : QString());
    status_->setForegroundRole(state == State::Checking ? QPalette::PlaceholderText
                                                        : QPalette::WindowText);
    status_->setVisible(state != State::Unchecked);
    emit stateChanged();
}

} // namespace ts::gui
