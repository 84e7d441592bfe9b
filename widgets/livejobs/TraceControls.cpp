#include "livejobs/TraceControls.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>

#include "common/AppSettings.h"
#include "form/PathEdit.h"

namespace ts::gui {

namespace {

// libkineto's limits as core checks them (ondemand/TraceRequest.h).
constexpr int kMaxSteps = 1000;
constexpr int kMaxDurationMs = 10 * 60 * 1000;
constexpr int kDefaultSteps = 5;
constexpr int kDefaultDurationMs = 2000;

QCheckBox* option(const QString& text, const QString& tip) {
    auto* box = new QCheckBox(text);
    box->setToolTip(tip);
    return box;
}

} // namespace

TraceControls::TraceControls(AppSettings& settings, QWidget* parent)
    : QWidget(parent), settings_(settings), by_steps_(new QRadioButton(tr("Next"))),
      by_duration_(new QRadioButton(tr("For"))), steps_(new QSpinBox), duration_ms_(new QSpinBox),
      shapes_(option(tr("Shapes"), tr("Record the input shapes of each operator"))),
      memory_(option(tr("Memory"), tr("Record allocations and frees (the Memory views)"))),
      stacks_(option(tr("Stacks"), tr("Record the Python stack of each operator"))),
      modules_(option(tr("Modules"), tr("Record the nn.Module hierarchy (the Modules view)"))),
      folder_(new PathEdit(PathEdit::Mode::Directory)), trace_(new QPushButton),
      job_(new QPushButton(tr("Trace the whole job"))) {
    steps_->setRange(1, kMaxSteps);
    steps_->setValue(kDefaultSteps);
    steps_->setSuffix(tr(" steps"));
    steps_->setObjectName(QStringLiteral("liveSteps"));
    duration_ms_->setRange(1, kMaxDurationMs);
    duration_ms_->setValue(kDefaultDurationMs);
    duration_ms_->setSuffix(tr(" ms"));
    duration_ms_->setSingleStep(500);
    by_steps_->setChecked(true);
    by_steps_->setToolTip(tr("From the job's next optimizer step"));
    by_duration_->setToolTip(tr("From the job's next poll, whatever its steps"));
    folder_->setPath(settings_.liveTraceFolder());
    folder_->setToolTip(tr("Where the traces go: a file per process, a folder of ranks per job"));
    trace_->setObjectName(QStringLiteral("traceProcess"));
    trace_->setToolTip(tr("Trace the selected process (or every process it started)"));
    job_->setObjectName(QStringLiteral("traceJob"));
    job_->setToolTip(tr("Trace every process of the selected process's job, from the same step"));

    auto* grid = new QGridLayout;
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(by_steps_, 0, 0);
    grid->addWidget(steps_, 0, 1);
    grid->addWidget(by_duration_, 0, 2);
    grid->addWidget(duration_ms_, 0, 3);
    grid->setColumnStretch(4, 1);
    auto* options = new QHBoxLayout;
    for (QCheckBox* box : {shapes_, memory_, stacks_, modules_})
        options->addWidget(box);
    options->addStretch(1);
    auto* folder = new QHBoxLayout;
    folder->addWidget(new QLabel(tr("Into")));
    folder->addWidget(folder_, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(trace_);
    buttons->addWidget(job_);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(grid);
    layout->addLayout(options);
    layout->addLayout(folder);
    layout->addLayout(buttons);

    connect(steps_, QOverload<int>::of(&QSpinBox::valueChanged), this,
            &TraceControls::updateButtons);
    connect(duration_ms_, QOverload<int>::of(&QSpinBox::valueChanged), this,
            &TraceControls::updateButtons);
    connect(by_steps_, &QRadioButton::toggled, this, &TraceControls::updateButtons);
    connect(folder_, &PathEdit::pathEdited, this,
            [this](const QString& dir) { settings_.setLiveTraceFolder(dir); });
    connect(trace_, &QPushButton::clicked, this, &TraceControls::traceClicked);
    connect(job_, &QPushButton::clicked, this, &TraceControls::jobClicked);
    updateButtons();
}

ondemand::TraceRequest TraceControls::request() const {
    ondemand::TraceRequest request;
    request.iterations = by_steps_->isChecked() ? steps_->value() : 0;
    request.duration_ms = by_steps_->isChecked() ? 0 : duration_ms_->value();
    request.shapes = shapes_->isChecked();
    request.memory = memory_->isChecked();
    request.stacks = stacks_->isChecked();
    request.modules = modules_->isChecked();
    return request;
}

QString TraceControls::outputFolder() const {
    return folder_->path().trimmed();
}

void TraceControls::setTargetChosen(bool chosen) {
    target_chosen_ = chosen;
    updateButtons();
}

void TraceControls::updateButtons() {
    steps_->setEnabled(by_steps_->isChecked());
    duration_ms_->setEnabled(!by_steps_->isChecked());
    const int steps = steps_->value();
    trace_->setText(!by_steps_->isChecked() ? tr("Trace the next %1 ms").arg(duration_ms_->value())
                    : steps == 1            ? tr("Trace the next step")
                                            : tr("Trace the next %1 steps").arg(steps));
    trace_->setEnabled(target_chosen_);
    job_->setEnabled(target_chosen_);
}

} // namespace ts::gui
