#pragma once
// The frame the analysis tabs share (Memory, Modules, Distributed, Diff):
// a line naming what is shown, then either a centred message saying why
// there is nothing to show (and what to open) or the tab's body.
#include <QString>

class QLabel;
class QVBoxLayout;
class QWidget;

namespace ts::gui {

class ViewFrame {
public:
    // Lays out `owner`; the tab fills bodyLayout() (a column without margins).
    explicit ViewFrame(QWidget* owner);

    QVBoxLayout* bodyLayout() const { return body_layout_; }
    // Shows `description` (hidden when empty) and the body, or `message`
    // instead of the body when it is not empty.
    void show(const QString& description, const QString& message);
    // The message shown, empty while the body is.
    QString messageText() const;

private:
    QWidget* owner_;
    QLabel* source_;
    QLabel* message_;
    QWidget* body_;
    QVBoxLayout* body_layout_;
};

} // namespace ts::gui
