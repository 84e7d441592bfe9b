#include "studies/PruneControls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include "form/PathEdit.h"

namespace ts::gui {
namespace {

// The method box's entries: 0 = L1 unstructured, else the channel norm.
constexpr int kUnstructured = 0;

} // namespace

PruneControls::PruneControls(QWidget* parent)
    : QWidget(parent), weights_(new PathEdit(PathEdit::Mode::File)), amount_(new QDoubleSpinBox),
      method_(new QComboBox), scope_(new QComboBox), linear_(new QCheckBox(tr("Include fc layer"))),
      latency_runs_(new QSpinBox) {
    weights_->setObjectName(QStringLiteral("pruneWeights"));
    weights_->setPlaceholderText(tr("trained weights: final.pt of a run, or a state_dict"));
    weights_->setFileFilter(tr("Weights (*.pt *.pth);;All files (*)"));
    weights_->setToolTip(tr("A Trainscope checkpoint (final.pt of a run) or a state_dict file "
                            "for the model in the form"));
    amount_->setRange(0, 1);
    amount_->setDecimals(2);
    amount_->setSingleStep(0.05);
    amount_->setObjectName(QStringLiteral("pruneAmount"));
    amount_->setToolTip(tr("Share of the weights (or output channels) set to zero, 0 to 1"));
    method_->addItem(tr("Unstructured (L1)"), kUnstructured);
    method_->addItem(tr("Channels, L1 norm"), 1);
    method_->addItem(tr("Channels, L2 norm"), 2);
    method_->setToolTip(tr("Unstructured: the smallest single weights. Channels: whole output "
                           "channels with the smallest norm"));
    scope_->addItem(tr("Per layer"), false);
    scope_->addItem(tr("Global"), true);
    scope_->setToolTip(tr("Per layer: the same share of every layer. Global: one threshold over "
                          "all layers (unstructured only)"));
    linear_->setToolTip(tr("Also prune the fully connected classifier's weights"));
    latency_runs_->setRange(1, kMaxLatencyRuns);
    latency_runs_->setToolTip(tr("Timed forward passes before and after pruning; the median "
                                 "and its spread are reported"));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Weights")));
    layout->addWidget(weights_, 3);
    layout->addWidget(new QLabel(tr("Amount")));
    layout->addWidget(amount_);
    layout->addWidget(method_);
    layout->addWidget(scope_);
    layout->addWidget(linear_);
    layout->addWidget(new QLabel(tr("Latency runs")));
    layout->addWidget(latency_runs_);

    setFrom(ExperimentRequest());
    connect(method_, &QComboBox::currentIndexChanged, this, &PruneControls::updateEnabled);
}

void PruneControls::fill(ExperimentRequest& r) const {
    r.weights = weights_->path();
    r.prune.amount = amount_->value();
    const int method = method_->currentData().toInt();
    r.prune.structured = method != kUnstructured;
    r.prune.norm = r.prune.structured ? method : 1;
    r.prune.global = !r.prune.structured && scope_->currentData().toBool();
    r.prune.include_linear = linear_->isChecked();
    r.latencyRuns = latency_runs_->value();
}

void PruneControls::setFrom(const ExperimentRequest& r) {
    weights_->setPath(r.weights);
    amount_->setValue(r.prune.amount);
    method_->setCurrentIndex(method_->findData(r.prune.structured ? r.prune.norm : kUnstructured));
    scope_->setCurrentIndex(scope_->findData(r.prune.global));
    linear_->setChecked(r.prune.include_linear);
    latency_runs_->setValue(r.latencyRuns);
    updateEnabled();
}

void PruneControls::setLocked(bool locked) {
    locked_ = locked;
    updateEnabled();
}

void PruneControls::updateEnabled() {
    for (QWidget* w : {static_cast<QWidget*>(weights_), static_cast<QWidget*>(amount_),
                       static_cast<QWidget*>(method_), static_cast<QWidget*>(linear_),
                       static_cast<QWidget*>(latency_runs_)})
        w->setEnabled(!locked_);
    // One global threshold applies to single weights only.
    scope_->setEnabled(!locked_ && method_->currentData().toInt() == kUnstructured);
}

} // namespace ts::gui
