#include "form/PathEdit.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QToolButton>

namespace ts::gui {

PathEdit::PathEdit(Mode mode, QWidget* parent)
    : QWidget(parent), mode_(mode), edit_(new QLineEdit), button_(new QToolButton) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(edit_, 1);
    layout->addWidget(button_);
    button_->setText(tr("Browse…"));
    button_->setToolTip(mode == Mode::Directory ? tr("Choose a folder") : tr("Choose a file"));
    edit_->setClearButtonEnabled(true);
    setFocusProxy(edit_);
    connect(edit_, &QLineEdit::textEdited, this, &PathEdit::pathEdited);
    connect(button_, &QToolButton::clicked, this, &PathEdit::browse);
}

QString PathEdit::path() const {
    return edit_->text().trimmed();
}

void PathEdit::setPath(const QString& path) {
    const QSignalBlocker block(edit_);
    edit_->setText(path);
}

void PathEdit::setPlaceholderText(const QString& text) {
    edit_->setPlaceholderText(text);
}

void PathEdit::browse() {
    const QString start = path();
    const QString chosen =
        mode_ == Mode::Directory
            ? QFileDialog::getExistingDirectory(this, tr("Choose a folder"), start)
            : QFileDialog::getOpenFileName(this, tr("Choose a file"), start, filter_);
    if (chosen.isEmpty()) return;
    edit_->setText(chosen);
    emit pathEdited(chosen);
}

} // namespace ts::gui
