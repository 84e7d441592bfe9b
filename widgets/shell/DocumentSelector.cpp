#include "shell/DocumentSelector.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolButton>

#include "sources/SourceRegistry.h"

namespace ts::gui {

DocumentSelector::DocumentSelector(QWidget* parent)
    : QWidget(parent), combo_(new QComboBox), close_(new QToolButton) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->addWidget(new QLabel(tr("Document:")));
    layout->addWidget(combo_);
    layout->addWidget(close_);
    combo_->setObjectName(QStringLiteral("documents"));
    // A fixed width: long file names would push the twelve tabs behind scroll arrows (the
    // tooltip and the popup list show the whole name).
    combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo_->setMinimumContentsLength(22);
    combo_->setToolTip(tr("The opened trace or run every tab shows"));
    combo_->setPlaceholderText(tr("(no document open)"));
    close_->setText(QStringLiteral("×"));
    close_->setToolTip(tr("Close this document (Ctrl+W)"));
    close_->setAutoRaise(true);
    // activated, not currentIndexChanged: picking the current entry shows it
    // again (after a live profiling window replaced it in the views).
    connect(combo_, QOverload<int>::of(&QComboBox::activated), this, [this](int index) {
        if (index >= 0 && index < count()) emit chosen(at(index));
    });
    connect(close_, &QToolButton::clicked, this, &DocumentSelector::closeCurrent);
    updateEnabled();
}

int DocumentSelector::currentIndex() const {
    return combo_->currentIndex();
}

int DocumentSelector::indexOf(const QString& path) const {
    const std::string key = path.toStdString();
    for (int i = 0; i < count(); ++i)
        if (at(i).path == key) return i;
    return -1;
}

const OpenedDocument* DocumentSelector::current() const {
    const int index = currentIndex();
    return index >= 0 && index < count() ? &at(index) : nullptr;
}

void DocumentSelector::add(const OpenedDocument& document) {
    int index = indexOf(QString::fromStdString(document.path));
    if (index < 0) {
        documents_.push_back(document);
        index = count() - 1;
        const QSignalBlocker blocker(combo_);
        combo_->addItem(QString());
    } else {
        documents_[size_t(index)] = document;
    }
    updateEntry(index);
    select(index);
    updateEnabled();
    emit listChanged();
}

void DocumentSelector::select(int index) {
    const QSignalBlocker blocker(combo_);
    combo_->setCurrentIndex(index);
}

void DocumentSelector::closeCurrent() {
    const int index = currentIndex();
    if (index < 0) return;
    const QString path = QString::fromStdString(at(index).path);
    documents_.erase(documents_.begin() + index);
    {
        const QSignalBlocker blocker(combo_);
        combo_->removeItem(index);
    }
    updateEnabled();
    emit closed(path);
    emit listChanged();
    if (documents_.empty()) {
        emit emptied();
        return;
    }
    const int next = qMin(index, count() - 1);
    select(next);
    emit chosen(at(next));
}

void DocumentSelector::updateEntry(int index) {
    const OpenedDocument& doc = at(index);
    QString tip = QString::fromStdString(doc.path);
    if (doc.source) tip += QStringLiteral("\n") + QString::fromUtf8(doc.source->title);
    if (doc.trace)
        tip += tr("\n%1 events").arg(doc.trace->events.size());
    else if (doc.run)
        tip += tr("\nrun without a trace");
    combo_->setItemText(index, QString::fromStdString(doc.title()));
    combo_->setItemData(index, tip, Qt::ToolTipRole);
}

void DocumentSelector::updateEnabled() {
    combo_->setEnabled(!documents_.empty());
    close_->setEnabled(!documents_.empty());
}

} // namespace ts::gui
