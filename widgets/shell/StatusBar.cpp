#include "shell/StatusBar.h"

#include <QLabel>

#include "common/Format.h"
#include "config/ThreadChoice.h"
#include "shell/LoadIndicator.h"

namespace ts::gui {
namespace {

QLabel* permanentLabel(QStatusBar* bar, const QString& tip) {
    auto* label = new QLabel;
    label->setToolTip(tip);
    label->setContentsMargins(6, 0, 6, 0);
    bar->addPermanentWidget(label);
    return label;
}

} // namespace

StatusBar::StatusBar(const EnvironmentInfo& env, QWidget* parent)
    : QStatusBar(parent), load_(new LoadIndicator) {
    // Permanent, so that messages shown meanwhile do not hide it.
    addPermanentWidget(load_);
    libtorch_ = permanentLabel(this, QString());
    libtorch_->setObjectName(QStringLiteral("libtorch"));
    device_ = permanentLabel(this, tr("Device of the current experiment"));
    threads_ = permanentLabel(this, QString());
    blas_ = permanentLabel(this, QString());
    onednn_ = permanentLabel(this, tr("oneDNN (MKL-DNN) kernels for convolutions"));
    setDevice(QStringLiteral("cpu"));
    setEnvironment(env);
}

void StatusBar::setEnvironment(const EnvironmentInfo& env) {
    if (env.blas.empty() && env.blas_library.empty() && env.torch_version.empty()) {
        threads_->setText(tr("LibTorch not loaded yet"));
        threads_->setToolTip(tr("Training needs LibTorch; it loads in the background once no "
                                "trace is being read, so that opening a trace does not wait "
                                "for it."));
        blas_->clear();
        onednn_->clear();
        return;
    }
    threads_->setToolTip(
        tr("Intra-op threads a run takes by default (%1) / inter-op threads")
            .arg(QString::fromStdString(chooseIntraOpThreads(0, 0, env.usable_cores).reason)));
    blas_->setToolTip(QString::fromStdString(env.blas_library));
    threads_->setText(tr("threads %1 / %2")
                          .arg(chooseIntraOpThreads(0, 0, env.usable_cores).threads)
                          .arg(env.inter_op_threads));
    QString blas =
        tr("BLAS: %1")
            .arg(QString::fromStdString(env.blas.empty() ? std::string("unknown") : env.blas));
    if (env.reference_blas) blas += tr(" (slow reference build)");
    blas_->setText(blas);
    onednn_->setText(env.onednn ? tr("oneDNN %1").arg(QString::fromStdString(env.onednn_version))
                                : tr("oneDNN off"));
}

void StatusBar::setDevice(const QString& device) {
    device_->setText(device);
}

void StatusBar::setLibTorch(const QString& label, const QString& details) {
    libtorch_->setText(label);
    libtorch_->setToolTip(details);
}

QString StatusBar::environmentText() const {
    QStringList parts{device_->text(), threads_->text(), blas_->text(), onednn_->text()};
    if (!libtorch_->text().isEmpty()) parts.prepend(libtorch_->text());
    return parts.join(QStringLiteral(" · "));
}

void StatusBar::showProgress(const RunProgress& p) {
    QString text = tr("Training: step %1/%2 · %3")
                       .arg(p.done_steps)
                       .arg(p.total_steps)
                       .arg(format::rate(p.images_per_sec, tr("images/s")));
    if (p.eta_s >= 0) text += tr(" · ETA %1").arg(format::seconds(p.eta_s));
    showMessage(text);
}

} // namespace ts::gui
