#include "common/ViewFrame.h"

#include <QLabel>
#include <QVBoxLayout>

namespace ts::gui {

ViewFrame::ViewFrame(QWidget* owner)
    : owner_(owner), source_(new QLabel), message_(new QLabel), body_(new QWidget),
      body_layout_(new QVBoxLayout(body_)) {
    body_layout_->setContentsMargins(0, 0, 0, 0);
    message_->setWordWrap(true);
    message_->setAlignment(Qt::AlignCenter);
    auto* layout = new QVBoxLayout(owner);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(source_);
    layout->addWidget(message_, 1);
    layout->addWidget(body_, 1);
}

void ViewFrame::show(const QString& description, const QString& message) {
    source_->setText(description);
    source_->setVisible(!description.isEmpty());
    message_->setText(message);
    message_->setVisible(!message.isEmpty());
    body_->setVisible(message.isEmpty());
}

QString ViewFrame::messageText() const {
    return message_->isVisibleTo(owner_) ? message_->text() : QString();
}

} // namespace ts::gui
