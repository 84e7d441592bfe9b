#pragma once
// The documents open at once (traces and run directories) and the combo box
// above the tabs that picks the one every view shows. Opening a path that is
// already listed replaces its entry, so a path is listed once.
#include <vector>

#include <QWidget>

#include "shell/OpenedDocument.h"

class QComboBox;
class QToolButton;

namespace ts::gui {

class DocumentSelector : public QWidget {
    Q_OBJECT
public:
    explicit DocumentSelector(QWidget* parent = nullptr);

    int count() const { return int(documents_.size()); }
    int currentIndex() const;
    // -1 when `path` (as documentPath() gives it) is not listed.
    int indexOf(const QString& path) const;
    // The shown document (null: none open).
    const OpenedDocument* current() const;
    const OpenedDocument& at(int index) const { return documents_[size_t(index)]; }
    QComboBox* combo() const { return combo_; }

    // Lists `document` (replacing the entry of the same path) and makes it
    // current, without emitting chosen().
    void add(const OpenedDocument& document);
    // Makes `index` current, without emitting chosen().
    void select(int index);
    // Removes the current entry; emits chosen() for the one that takes its
    // place, or emptied().
    void closeCurrent();

signals:
    // The user picked an entry (again, too), or closing made it current.
    void chosen(const ts::gui::OpenedDocument& document);
    void emptied();
    // A document was added, replaced or closed (Diff's list follows).
    void listChanged();
    // The document of this path was closed.
    void closed(const QString& path);

private:
    void updateEntry(int index);
    void updateEnabled();

    std::vector<OpenedDocument> documents_; // in the combo's order
    QComboBox* combo_;
    QToolButton* close_;
};

} // namespace ts::gui
