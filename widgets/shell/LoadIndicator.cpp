#include "shell/LoadIndicator.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace ts::gui {
namespace {

// Per mille: smooth for a 2 GB file without overflowing the bar's int.
constexpr qint64 kSteps = 1000;

} // namespace

LoadIndicator::LoadIndicator(QWidget* parent)
    : QWidget(parent), name_(new QLabel), bar_(new QProgressBar), cancel_(new QPushButton) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 0, 6, 0);
    layout->addWidget(name_);
    layout->addWidget(bar_);
    layout->addWidget(cancel_);
    bar_->setObjectName(QStringLiteral("loadProgress"));
    bar_->setFixedWidth(160);
    bar_->setMaximumHeight(16);
    cancel_->setObjectName(QStringLiteral("cancelLoad"));
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop opening this file; what is shown stays as it is."));
    connect(cancel_, &QPushButton::clicked, this, &LoadIndicator::cancelClicked);
    hide();
}

QString LoadIndicator::fileName() const {
    return name_->text();
}

void LoadIndicator::showProgress(const QString& path, qint64 done, qint64 total) {
    name_->setText(QFileInfo(path).fileName());
    name_->setToolTip(path);
    if (total <= 0) {
        bar_->setRange(0, 0); // busy until the reader knows the size
    } else {
        bar_->setRange(0, int(kSteps));
        bar_->setValue(int(qBound(qint64(0), done * kSteps / total, kSteps)));
    }
    cancel_->setEnabled(true);
    show();
}

void LoadIndicator::finish() {
    hide();
    bar_->reset();
}

} // namespace ts::gui
