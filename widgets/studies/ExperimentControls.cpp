#include "studies/ExperimentControls.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "config/ConfigKeys.h"
#include "studies/PruneControls.h"

namespace ts::gui {
namespace {

QComboBox* keyBox(bool optional) {
    auto* box = new QComboBox;
    if (optional) box->addItem(QObject::tr("(none)"), QString());
    for (const auto& spec : config_keys::topLevelKeys()) {
        const QString key = QString::fromLatin1(spec.key);
        box->addItem(key, key);
        box->setItemData(box->count() - 1, QString::fromLatin1(spec.help), Qt::ToolTipRole);
    }
    box->setMaxVisibleItems(20);
    return box;
}

void selectKey(QComboBox* box, const QString& key) {
    const int index = box->findData(key);
    box->setCurrentIndex(index >= 0 ? index : 0);
}

} // namespace

ExperimentControls::ExperimentControls(QWidget* parent)
    : QWidget(parent), mode_(new QComboBox), key_(keyBox(false)), values_(new QLineEdit),
      key2_(keyBox(true)), values2_(new QLineEdit), steps_(new QSpinBox), warmup_(new QSpinBox),
      rounds_(new QSpinBox), prune_(new PruneControls), start_(new QPushButton(tr("Start"))),
      stop_(new QPushButton(tr("Stop"))), open_(new QPushButton(tr("Open…"))),
      export_(new QPushButton(tr("Export PNG…"))), status_(new QLabel) {
    mode_->addItem(tr("Sweep"), int(ExperimentMode::Sweep));
    mode_->addItem(tr("Optimization ladder"), int(ExperimentMode::Ladder));
    mode_->addItem(tr("Prune"), int(ExperimentMode::Prune));
    mode_->setToolTip(tr("Sweep: one short run per value (per cell of a grid with a second "
                         "key). Ladder: a baseline, then each optimization on top of the best "
                         "so far, kept when it is faster. Prune: zero the smallest weights of "
                         "trained weights, then compare accuracy and latency before and after."));
    mode_->setObjectName(QStringLiteral("experimentMode"));
    values_->setPlaceholderText(tr("comma-separated, e.g. 16,32,64"));
    values_->setObjectName(QStringLiteral("sweepValues"));
    values2_->setPlaceholderText(tr("values of the second key (grid)"));
    steps_->setRange(1, kMaxExperimentSteps);
    steps_->setToolTip(tr("Measured steps per point; their median is reported"));
    warmup_->setRange(0, kMaxExperimentSteps);
    warmup_->setToolTip(tr("Steps before the measured ones, left out of the medians"));
    rounds_->setRange(1, kMaxRounds);
    rounds_->setObjectName(QStringLiteral("experimentRounds"));
    rounds_->setToolTip(tr("Runs of one configuration differ by up to ±10% on a shared machine. "
                           "Sweep: rounds over all points, in alternating order, for an interval "
                           "per point (1 = one run each). Ladder: rounds per rung, each the best "
                           "so far and the candidate back to back (at least 2)."));
    start_->setToolTip(tr("Run the experiment in the form with these settings"));
    open_->setToolTip(tr("Show a sweep, ladder or prune directory (also written by "
                         "trainscope-cli)"));
    export_->setToolTip(tr("Save the charts as a PNG image"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* grid = new QGridLayout;
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(new QLabel(tr("Mode")), 0, 0);
    grid->addWidget(mode_, 0, 1);
    grid->addWidget(new QLabel(tr("Key")), 0, 2);
    grid->addWidget(key_, 0, 3);
    grid->addWidget(new QLabel(tr("Values")), 0, 4);
    grid->addWidget(values_, 0, 5);
    grid->addWidget(new QLabel(tr("Grid key")), 0, 6);
    grid->addWidget(key2_, 0, 7);
    grid->addWidget(values2_, 0, 8);
    grid->addWidget(new QLabel(tr("Steps")), 1, 0);
    auto* counts = new QHBoxLayout;
    counts->addWidget(steps_);
    counts->addWidget(new QLabel(tr("Warm-up")));
    counts->addWidget(warmup_);
    counts->addWidget(new QLabel(tr("Rounds")));
    counts->addWidget(rounds_);
    counts->addStretch(1);
    grid->addLayout(counts, 1, 1, 1, 3);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {start_, stop_, open_, export_})
        buttons->addWidget(b);
    buttons->addStretch(1);
    grid->addLayout(buttons, 1, 4, 1, 5);
    grid->setColumnStretch(5, 2);
    grid->setColumnStretch(8, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(grid);
    layout->addWidget(prune_);
    layout->addWidget(status_);

    setRequest(ExperimentRequest());
    connect(mode_, &QComboBox::currentIndexChanged, this, &ExperimentControls::updateEnabled);
    connect(key2_, &QComboBox::currentIndexChanged, this, &ExperimentControls::updateEnabled);
    connect(start_, &QPushButton::clicked, this, &ExperimentControls::startClicked);
    connect(stop_, &QPushButton::clicked, this, &ExperimentControls::stopClicked);
    connect(open_, &QPushButton::clicked, this, &ExperimentControls::openClicked);
    connect(export_, &QPushButton::clicked, this, &ExperimentControls::exportClicked);
    updateEnabled();
}

ExperimentRequest ExperimentControls::request() const {
    ExperimentRequest r;
    r.mode = ExperimentMode(mode_->currentData().toInt());
    r.key = key_->currentData().toString();
    r.values = values_->text();
    r.key2 = key2_->currentData().toString();
    r.values2 = r.key2.isEmpty() ? QString() : values2_->text();
    r.steps = steps_->value();
    r.warmup = warmup_->value();
    r.rounds = rounds_->value();
    prune_->fill(r);
    return r;
}

void ExperimentControls::setRequest(const ExperimentRequest& r) {
    mode_->setCurrentIndex(mode_->findData(int(r.mode)));
    selectKey(key_, r.key);
    values_->setText(r.values);
    selectKey(key2_, r.key2);
    values2_->setText(r.values2);
    steps_->setValue(r.steps);
    warmup_->setValue(r.warmup);
    rounds_->setValue(r.rounds);
    prune_->setFrom(r);
    updateEnabled();
}

void ExperimentControls::setRunning(bool running) {
    running_ = running;
    updateEnabled();
}

void ExperimentControls::setStartBlocked(const QString& reason) {
    blocked_ = reason;
    updateEnabled();
}

void ExperimentControls::setStatus(const QString& text) {
    status_->setText(text);
}

QString ExperimentControls::status() const {
    return status_->text();
}

void ExperimentControls::updateEnabled() {
    const auto mode = ExperimentMode(mode_->currentData().toInt());
    const bool sweep = mode == ExperimentMode::Sweep;
    const bool prune = mode == ExperimentMode::Prune;
    const bool grid = !key2_->currentData().toString().isEmpty();
    for (QWidget* w : {static_cast<QWidget*>(mode_), static_cast<QWidget*>(open_)})
        w->setEnabled(!running_);
    steps_->setEnabled(!running_ && !prune);
    warmup_->setEnabled(!running_ && !prune);
    rounds_->setEnabled(!running_ && !prune);
    prune_->setVisible(prune);
    prune_->setLocked(running_);
    key_->setEnabled(!running_ && sweep);
    values_->setEnabled(!running_ && sweep);
    key2_->setEnabled(!running_ && sweep);
    values2_->setEnabled(!running_ && sweep && grid);
    start_->setEnabled(!running_ && blocked_.isEmpty());
    start_->setToolTip(blocked_.isEmpty() ? tr("Run the experiment in the form with these settings")
                                          : blocked_);
    // A pruning study is a short evaluation with no step to stop after.
    stop_->setEnabled(running_ && !prune);
    stop_->setToolTip(prune ? tr("A pruning study is a short evaluation and cannot be stopped")
                            : tr("Stop after the current step; the points not run are recorded "
                                 "as cancelled"));
}

} // namespace ts::gui
