#include "form/RunPanel.h"

#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStyle>

#include "common/Format.h"

namespace ts::gui {

RunPanel::RunPanel(QWidget* parent)
    : QWidget(parent), start_(new QPushButton(tr("Start"))), stop_(new QPushButton(tr("Stop"))),
      bar_(new QProgressBar), status_(new QLabel) {
    start_->setObjectName(QStringLiteral("start"));
    stop_->setObjectName(QStringLiteral("stop"));
    start_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    stop_->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
    start_->setToolTip(tr("Start the experiment (F5)"));
    stop_->setToolTip(tr("Stop after the current step; the partial run is kept (Shift+F5)"));
    bar_->setRange(0, 1000);
    bar_->setValue(0);
    bar_->setTextVisible(true);
    bar_->setFormat(QString());
    status_->setWordWrap(true);
    status_->setObjectName(QStringLiteral("runStatus"));

    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(6, 0, 6, 6);
    layout->addWidget(start_, 0, 0);
    layout->addWidget(stop_, 0, 1);
    layout->addWidget(bar_, 1, 0, 1, 2);
    layout->addWidget(status_, 2, 0, 1, 2);
    connect(start_, &QPushButton::clicked, this, &RunPanel::startClicked);
    connect(stop_, &QPushButton::clicked, this, &RunPanel::stopClicked);
    updateButtons();
}

void RunPanel::setStartBlocked(const QString& reason) {
    blocked_reason_ = reason;
    updateButtons();
}

void RunPanel::setRunning(bool running, const QString& starting) {
    running_ = running;
    if (running) {
        bar_->setValue(0);
        bar_->setFormat(tr("starting…"));
        status_->setText(starting.isEmpty() ? tr("Preparing the model and data…") : starting);
    }
    updateButtons();
}

void RunPanel::setProgress(const RunProgress& p) {
    bar_->setValue(int(p.fraction() * 1000));
    bar_->setFormat(p.total_steps > 0 ? tr("step %1 / %2").arg(p.done_steps).arg(p.total_steps)
                                      : tr("step %1").arg(p.done_steps));
    // A user's script does not say how many epochs it will train.
    QString text = (p.total_epochs > 0 ? tr("epoch %1 / %2").arg(p.epoch + 1).arg(p.total_epochs)
                                       : tr("epoch %1").arg(p.epoch + 1)) +
                   tr(" · %1").arg(format::rate(p.images_per_sec, tr("images/s")));
    if (p.eta_s >= 0) text += tr(" · ETA %1").arg(format::seconds(p.eta_s));
    status_->setText(text);
}

void RunPanel::setStopping() {
    bar_->setFormat(tr("stopping…"));
    stop_->setEnabled(false);
}

void RunPanel::setFinished(const RunOutcome& outcome) {
    running_ = false;
    const RunSummary& s = outcome.summary;
    if (s.status == RunStatus::Completed) bar_->setValue(bar_->maximum());
    bar_->setFormat(QString::fromLatin1(toString(s.status)));
    QString text = tr("%1 after %2 steps in %3")
                       .arg(QString::fromLatin1(toString(s.status)))
                       .arg(s.steps_completed)
                       .arg(format::seconds(s.total_time_s));
    if (!s.error.empty()) text += QStringLiteral("\n") + QString::fromStdString(s.error);
    if (!outcome.runDir.isEmpty()) text += tr("\nSaved in %1").arg(outcome.runDir);
    status_->setText(text);
    updateButtons();
}

void RunPanel::updateButtons() {
    start_->setEnabled(!running_ && blocked_reason_.isEmpty());
    start_->setToolTip(blocked_reason_.isEmpty() ? tr("Start the experiment (F5)")
                                                 : blocked_reason_);
    stop_->setEnabled(running_);
}

} // namespace ts::gui
