#include "shell/CompareSelector.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

#include "shell/DocumentSelector.h"

namespace ts::gui {

CompareSelector::CompareSelector(DocumentSelector& documents, QWidget* parent)
    : QWidget(parent), documents_(documents), combo_(new QComboBox) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->addWidget(new QLabel(tr("Compare with:")));
    layout->addWidget(combo_);
    combo_->setObjectName(QStringLiteral("compareWith"));
    combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo_->setMinimumContentsLength(12);
    combo_->setToolTip(tr("Another open document: the Kernels and the diagnoses' tables show "
                          "this document's values beside their change against it (B − A)"));
    connect(&documents_, &DocumentSelector::listChanged, this, &CompareSelector::rebuild);
    connect(combo_, QOverload<int>::of(&QComboBox::activated), this,
            [this](int index) { choose(index - 1); });
    rebuild();
}

const OpenedDocument* CompareSelector::chosen() const {
    const int index = documents_.indexOf(chosen_path_);
    return chosen_path_.isEmpty() || index < 0 ? nullptr : &documents_.at(index);
}

void CompareSelector::choose(int document_index) {
    chosen_path_ = document_index >= 0 && document_index < documents_.count()
                       ? QString::fromStdString(documents_.at(document_index).path)
                       : QString();
    rebuild();
    emit changed(chosen());
}

// The open documents, the chosen one kept while it is open.
void CompareSelector::rebuild() {
    const QSignalBlocker blocker(combo_);
    combo_->clear();
    combo_->addItem(tr("(nothing)"));
    for (int i = 0; i < documents_.count(); ++i)
        combo_->addItem(QString::fromStdString(documents_.at(i).title()));
    const int index = documents_.indexOf(chosen_path_);
    if (index < 0 && !chosen_path_.isEmpty()) {
        chosen_path_.clear(); // closed: nothing to compare with
        emit changed(nullptr);
    }
    combo_->setCurrentIndex(chosen_path_.isEmpty() ? 0 : index + 1);
    setEnabled(documents_.count() > 1);
}

} // namespace ts::gui
