#include "shell/SelectionBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

#include "common/DocumentSelection.h"

namespace ts::gui {

SelectionBar::SelectionBar(DocumentSelection& selection, QWidget* parent)
    : QWidget(parent), selection_(selection), label_(new QLabel), back_(new QToolButton),
      clear_(new QToolButton) {
    setObjectName(QStringLiteral("selectionBar"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->addWidget(label_);
    layout->addWidget(back_);
    layout->addWidget(clear_);
    label_->setToolTip(tr("What every view of this document shows: a step or time range picked "
                          "on the Timeline (Shift+drag), the Overview or the Distributed view, "
                          "a rank, an event"));
    back_->setText(QStringLiteral("◀"));
    back_->setToolTip(tr("Back to the selection before (Alt+Left)"));
    back_->setShortcut(QKeySequence(QStringLiteral("Alt+Left")));
    back_->setAutoRaise(true);
    clear_->setText(tr("Whole document"));
    clear_->setToolTip(tr("Clear the selection: every view shows the whole document"));
    clear_->setAutoRaise(true);
    connect(back_, &QToolButton::clicked, &selection_, &DocumentSelection::back);
    connect(clear_, &QToolButton::clicked, &selection_, &DocumentSelection::clear);
    connect(&selection_, &DocumentSelection::changed, this, [this] { update(); });
    connect(&selection_, &DocumentSelection::documentChanged, this, [this] { update(); });
    update();
}

QString SelectionBar::text() const {
    return label_->text();
}

void SelectionBar::setTrace(std::shared_ptr<const Trace> trace) {
    trace_ = std::move(trace);
    update();
}

void SelectionBar::update() {
    const Selection& s = selection_.current();
    const auto name = [this](int32_t event) {
        return trace_ && size_t(event) < trace_->events.size()
                   ? QString::fromStdString(trace_->names[trace_->events.core(size_t(event)).name])
                   : tr("event %1").arg(event);
    };
    label_->setText(s.empty() ? QString() : tr("Selection: %1").arg(s.label(name)));
    back_->setEnabled(selection_.canGoBack());
    clear_->setVisible(!s.empty());
    back_->setVisible(!s.empty() || selection_.canGoBack());
}

} // namespace ts::gui
