#pragma once
// "Compare with": another open document whose tables the shown document's
// are set against, B − A, in every table view that can (Kernels and the
// diagnoses' tables; report/TableDiff.h). The Diff view compares two
// documents side by side; this puts the comparison into the views themselves.
#include <QWidget>

#include "shell/OpenedDocument.h"

class QComboBox;

namespace ts::gui {

class DocumentSelector;

class CompareSelector : public QWidget {
    Q_OBJECT
public:
    explicit CompareSelector(DocumentSelector& documents, QWidget* parent = nullptr);
    QComboBox* combo() const { return combo_; }
    // The document chosen, null: none (or it was closed).
    const OpenedDocument* chosen() const;
    void choose(int document_index); // -1: none

signals:
    void changed(const ts::gui::OpenedDocument* baseline);

private:
    void rebuild();

    DocumentSelector& documents_;
    QComboBox* combo_;
    QString chosen_path_; // the document's key, "" none
};

} // namespace ts::gui
