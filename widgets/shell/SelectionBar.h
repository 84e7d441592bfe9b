#pragma once
// Beside the document selector: what the shown document's selection holds
// ("step 12 · 3.200–4.100 ms · rank 3"), with Back (the choice before,
// Alt+Left) and Clear (the whole document). Every view follows it; this is
// where a user sees why the Operators table holds fewer rows than before.
#include <memory>

#include <QWidget>

#include "trace/Trace.h"

class QLabel;
class QToolButton;

namespace ts::gui {

class DocumentSelection;

class SelectionBar : public QWidget {
    Q_OBJECT
public:
    explicit SelectionBar(DocumentSelection& selection, QWidget* parent = nullptr);
    QString text() const;
    // The shown document's trace, to name a selected event (null: none).
    void setTrace(std::shared_ptr<const Trace> trace);

private:
    void update();

    DocumentSelection& selection_;
    std::shared_ptr<const Trace> trace_;
    QLabel* label_;
    QToolButton* back_;
    QToolButton* clear_;
};

} // namespace ts::gui
