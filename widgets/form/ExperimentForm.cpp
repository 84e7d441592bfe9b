#include "form/ExperimentForm.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "config/ConfigError.h"
#include "form/DevicePicker.h"
#include "form/FormFields.h"
#include "form/TorchFeatureFields.h"

namespace ts::gui {
namespace {

constexpr int kRevalidateDelayMs = 150; // after the last keystroke

} // namespace

ExperimentForm::ExperimentForm(std::vector<PresetInfo> presets, std::vector<DeviceOption> devices,
                               DeviceSupportCheck support, QWidget* parent)
    : QWidget(parent), presets_(std::move(presets)), fields_(new FormFields(this)),
      devices_(new DevicePicker(std::move(devices), std::move(support), this)) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(6, 6, 6, 6);
    buildPresetRow(outer);

    auto* content = new QWidget;
    auto* sections = new QVBoxLayout(content);
    sections->setContentsMargins(0, 0, 0, 0);
    buildModelSection(addFormSection(sections, tr("Model")));
    buildDataSection(addFormSection(sections, tr("Data")));
    buildDeviceSection(addFormSection(sections, tr("Device")));
    buildTrainingSection(addFormSection(sections, tr("Training")));
    buildProfilingSection(addFormSection(sections, tr("Profiling")));
    sections->addStretch(1);

    outer->addWidget(scrollingSections(content), 1);

    issues_label_ = new QLabel;
    issues_label_->setWordWrap(true);
    issues_label_->setObjectName(QStringLiteral("issues"));
    issues_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    outer->addWidget(issues_label_);

    revalidate_timer_.setSingleShot(true);
    revalidate_timer_.setInterval(kRevalidateDelayMs);
    connect(&revalidate_timer_, &QTimer::timeout, this, &ExperimentForm::revalidate);
    connect(fields_, &FormFields::edited, this, &ExperimentForm::onEdited);
    connect(devices_, &DevicePicker::changed, this, &ExperimentForm::onEdited);
    setConfig(ExperimentConfig());
}

void ExperimentForm::buildPresetRow(QVBoxLayout* layout) {
    auto* row = new QFormLayout;
    preset_box_ = new QComboBox;
    preset_box_->setObjectName(QStringLiteral("preset"));
    preset_box_->addItem(tr("(custom)"), QString());
    for (const PresetInfo& preset : presets_) {
        QString text = QString::fromStdString(preset.name);
        if (preset.needs_cuda) text += tr(" (CUDA)");
        preset_box_->addItem(text, QString::fromStdString(preset.name));
        preset_box_->setItemData(preset_box_->count() - 1,
                                 QString::fromStdString(preset.description), Qt::ToolTipRole);
    }
    row->addRow(tr("&Preset"), preset_box_);
    layout->addLayout(row);
    preset_note_ = new QLabel;
    preset_note_->setWordWrap(true);
    preset_note_->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(preset_note_);
    connect(preset_box_, &QComboBox::activated, this, [this](int index) {
        const QString name = preset_box_->itemData(index).toString();
        if (!name.isEmpty()) selectPreset(name);
    });
}

void ExperimentForm::buildModelSection(QFormLayout* form) {
    form->addRow(tr("Name"), fields_->addText(
                                 "name", [](auto& c) -> auto& { return c.name; }));
    form->addRow(tr("Model"), fields_->addChoice(
                                  "model", [](auto& c) -> auto& { return c.model; }));
    PathEdit* script = fields_->addPath(
        "model_path", [](auto& c) -> auto& { return c.model_path; }, false);
    script->setFileFilter(tr("TorchScript modules (*.pt *.pth *.ts);;All files (*)"));
    script->setPlaceholderText(tr("TorchScript module (model = torchscript)"));
    form->addRow(tr("Module file"), script);
    form->addRow(tr("Stem"), fields_->addChoice(
                                 "stem", [](auto& c) -> auto& { return c.stem; }));
    form->addRow(tr("Classes"),
                 fields_->addInt(
                     "num_classes", [](auto& c) -> auto& { return c.num_classes; }, 1, 100000));
    PathEdit* weights = fields_->addPath(
        "pretrained", [](auto& c) -> auto& { return c.pretrained; }, false);
    weights->setPlaceholderText(tr("optional state_dict or TorchScript weights"));
    form->addRow(tr("Pretrained"), weights);
}

void ExperimentForm::buildDataSection(QFormLayout* form) {
    form->addRow(tr("Dataset"), fields_->addChoice(
                                    "dataset", [](auto& c) -> auto& { return c.dataset; }));
    PathEdit* dir = fields_->addPath(
        "data_dir", [](auto& c) -> auto& { return c.data_dir; }, true);
    dir->setPlaceholderText(tr("default location of the dataset"));
    form->addRow(tr("Data folder"), dir);
    form->addRow(tr("Samples"),
                 fields_->addInt(
                     "synthetic_samples", [](auto& c) -> auto& { return c.synthetic_samples; }, 1,
                     100000000));
    form->addRow(tr("Image size"),
                 fields_->addInt(
                     "image_size", [](auto& c) -> auto& { return c.image_size; }, 8, 1024));
    form->addRow(QString(), fields_->addBool(
                                "augment", [](auto& c) -> auto& { return c.augment; },
                                tr("Augment (crop + flip)")));
    QSpinBox* workers = fields_->addInt(
        "workers", [](auto& c) -> auto& { return c.workers; }, 0, 64);
    workers->setToolTip(tr("Loader threads; 0 loads on the training thread."));
    form->addRow(tr("Workers"), workers);
    form->addRow(tr("Prefetch"),
                 fields_->addInt(
                     "prefetch", [](auto& c) -> auto& { return c.prefetch; }, 1, 64));
    form->addRow(QString(), fields_->addBool(
                                "pin_memory", [](auto& c) -> auto& { return c.pin_memory; },
                                tr("Pin memory (CUDA)")));
}

void ExperimentForm::buildDeviceSection(QFormLayout* form) {
    fields_->addCustom(
        "device", devices_->deviceBox(),
        [this](const ExperimentConfig& c) { devices_->select(c.device, c.precision); },
        [this](ExperimentConfig& c) { c.device = devices_->device(); });
    fields_->addCustom(
        "precision", devices_->precisionBox(), [](const ExperimentConfig&) {},
        [this](ExperimentConfig& c) { c.precision = devices_->precision(); });
    form->addRow(tr("Device"), devices_->deviceBox());
    form->addRow(tr("Precision"), devices_->precisionBox());
    QSpinBox* threads = fields_->addInt(
        "threads", [](auto& c) -> auto& { return c.threads; }, 0, 1024);
    threads->setSpecialValueText(tr("default"));
    threads->setToolTip(tr("Intra-op threads; default: the cores this process may use (its CPU "
                           "affinity), less up to a quarter for loader workers."));
    form->addRow(tr("Threads"), threads);
    processes_ = new QSpinBox;
    processes_->setObjectName(QStringLiteral("processes"));
    processes_->setRange(1, 64);
    processes_->setToolTip(
        tr("Data-parallel processes on this machine (trainscope-cli run --nproc-per-node): each "
           "trains on its own shard with this batch size, gradients are averaged after every "
           "step, and the cores are shared (threads = cores / processes by default). 1 trains "
           "in this window's process."));
    connect(processes_, qOverload<int>(&QSpinBox::valueChanged), this,
            &ExperimentForm::configEdited);
    form->addRow(tr("Processes"), processes_);
    form->addRow(QString(), fields_->addBool(
                                "channels_last", [](auto& c) -> auto& { return c.channels_last; },
                                tr("Channels-last memory format")));
}

void ExperimentForm::buildTrainingSection(QFormLayout* form) {
    form->addRow(tr("Batch size"),
                 fields_->addInt(
                     "batch_size", [](auto& c) -> auto& { return c.batch_size; }, 1, 65536));
    form->addRow(tr("Epochs"), fields_->addInt(
                                   "epochs", [](auto& c) -> auto& { return c.epochs; }, 1, 100000));
    QSpinBox* max_steps = fields_->addInt(
        "max_steps", [](auto& c) -> auto& { return c.max_steps; }, 0, 100000000);
    max_steps->setSpecialValueText(tr("whole epoch"));
    form->addRow(tr("Max steps/epoch"), max_steps);
    form->addRow(tr("Optimizer"), fields_->addChoice(
                                      "optimizer", [](auto& c) -> auto& { return c.optimizer; }));
    QCheckBox* fused = fields_->addBool(
        "fused_optimizer", [](auto& c) -> auto& { return c.fused_optimizer; },
        tr("Fused optimizer step"));
    fused->setToolTip(tr("SGD, Adam and AdamW update every parameter in one fused kernel "
                         "(at::_fused_sgd_, _fused_adam_, _fused_adamw_) where LibTorch has it "
                         "(2.4 and later); off, or on an older LibTorch, torch::optim loops over "
                         "the parameters. The run records which one ran (run.json's "
                         "optimizer_implementation)."));
    form->addRow(QString(), fused);
    form->addRow(tr("Learning rate"), fields_->addNumber(
                                          "lr", [](auto& c) -> auto& { return c.lr; }));
    form->addRow(tr("Momentum"), fields_->addNumber(
                                     "momentum", [](auto& c) -> auto& { return c.momentum; }));
    form->addRow(tr("Weight decay"),
                 fields_->addNumber(
                     "weight_decay", [](auto& c) -> auto& { return c.weight_decay; }));
    form->addRow(tr("Schedule"), fields_->addChoice(
                                     "schedule", [](auto& c) -> auto& { return c.schedule; }));
    form->addRow(
        tr("Warm-up steps"),
        fields_->addInt(
            "warmup_steps", [](auto& c) -> auto& { return c.warmup_steps; }, 0, 100000000));
    form->addRow(
        tr("Step every (epochs)"),
        fields_->addInt(
            "lr_step_epochs", [](auto& c) -> auto& { return c.lr_step_epochs; }, 1, 100000));
    form->addRow(tr("Step factor"), fields_->addNumber(
                                        "lr_gamma", [](auto& c) -> auto& { return c.lr_gamma; }));
    QSpinBox* val = fields_->addInt(
        "val_every", [](auto& c) -> auto& { return c.val_every; }, 0, 1000);
    val->setSpecialValueText(tr("never"));
    form->addRow(tr("Validate every"), val);
    form->addRow(tr("Seed"), fields_->addInt(
                                 "seed", [](auto& c) -> auto& { return c.seed; }, 0,
                                 std::numeric_limits<int>::max()));
}

void ExperimentForm::buildProfilingSection(QFormLayout* form) {
    form->addRow(QString(),
                 fields_->addBool(
                     "profile.enabled", [](auto& c) -> auto& { return c.profile.enabled; },
                     tr("Profile operators")));
    form->addRow(tr("Skip first"),
                 fields_->addInt(
                     "profile.skip_first", [](auto& c) -> auto& { return c.profile.skip_first; }, 0,
                     1000000));
    form->addRow(tr("Wait"),
                 fields_->addInt(
                     "profile.wait", [](auto& c) -> auto& { return c.profile.wait; }, 0, 1000000));
    form->addRow(tr("Warm-up"), fields_->addInt(
                                    "profile.warmup",
                                    [](auto& c) -> auto& { return c.profile.warmup; }, 0, 1000000));
    form->addRow(tr("Active"), fields_->addInt(
                                   "profile.active",
                                   [](auto& c) -> auto& { return c.profile.active; }, 0, 1000000));
    QSpinBox* repeat = fields_->addInt(
        "profile.repeat", [](auto& c) -> auto& { return c.profile.repeat; }, 0, 1000000);
    repeat->setSpecialValueText(tr("until the end"));
    form->addRow(tr("Repeat"), repeat);
    form->addRow(QString(), fields_->addBool(
                                "profile.record_shapes",
                                [](auto& c) -> auto& { return c.profile.record_shapes; },
                                tr("Record shapes")));
    form->addRow(QString(), fields_->addBool(
                                "profile.profile_memory",
                                [](auto& c) -> auto& { return c.profile.profile_memory; },
                                tr("Track memory")));
    form->addRow(QString(),
                 fields_->addBool(
                     "profile.with_flops", [](auto& c) -> auto& { return c.profile.with_flops; },
                     tr("Estimate FLOPs")));
    QComboBox* recorder = fields_->addChoice(
        "profile.recorder", [](auto& c) -> auto& { return c.profile.recorder; });
    recorder->setToolTip(tr("kineto: LibTorch's own profiler, as torch.profiler (GPU kernels on "
                            "CUDA); trainscope: Trainscope's collector; auto: Kineto where this "
                            "LibTorch has it"));
    form->addRow(tr("Recorder"), recorder);
}

ExperimentConfig ExperimentForm::config() const {
    ExperimentConfig config = base_;
    collect(config);
    return config;
}

std::vector<ConfigIssue> ExperimentForm::collect(ExperimentConfig& config) const {
    return fields_->store(config);
}

void ExperimentForm::setConfig(const ExperimentConfig& config) {
    base_ = config;
    fields_->load(config);
    revalidate();
}

bool ExperimentForm::selectPreset(const QString& name, QString* errorText) {
    try {
        setConfig(loadPreset(name.toStdString()));
    } catch (const std::exception& error) {
        if (errorText) *errorText = QString::fromUtf8(error.what());
        return false;
    }
    const QSignalBlocker block(preset_box_);
    const int index = preset_box_->findData(name);
    preset_box_->setCurrentIndex(index < 0 ? 0 : index);
    preset_note_->setText(index < 0 ? QString()
                                    : preset_box_->itemData(index, Qt::ToolTipRole).toString());
    return true;
}

QString ExperimentForm::presetName() const {
    return preset_box_->currentData().toString();
}

int ExperimentForm::processes() const {
    return processes_->value();
}

void ExperimentForm::setProcesses(int processes) {
    processes_->setValue(processes); // clamped to the field's range
}

void ExperimentForm::setDevices(std::vector<DeviceOption> devices, DeviceSupportCheck support) {
    devices_->setDevices(std::move(devices), std::move(support)); // re-checks (changed)
}

void ExperimentForm::setFeatures(const TorchFeatures& features) {
    features_ = features;
    offerTorchFeatures(*fields_, features_);
    revalidate();
}

void ExperimentForm::onEdited() {
    updateDependentFields();
    revalidate_timer_.start();
    emit configEdited();
}

void ExperimentForm::revalidate() {
    revalidate_timer_.stop();
    ExperimentConfig config = base_;
    std::vector<ConfigIssue> issues = collect(config);
    for (ConfigIssue& issue : validateConfigWith(config, devices_->support()))
        issues.push_back(std::move(issue));
    for (ConfigIssue& issue : torchFeatureIssues(config, features_))
        issues.push_back(std::move(issue));
    issues_ = std::move(issues);

    fields_->markIssues(issues_);
    updateDependentFields();
    QStringList lines;
    for (const ConfigIssue& issue : issues_)
        lines << QStringLiteral("<b>%1</b>: %2")
                     .arg(QString::fromStdString(issue.key).toHtmlEscaped(),
                          QString::fromStdString(issue.message).toHtmlEscaped());
    issues_label_->setText(lines.join(QStringLiteral("<br>")));
    issues_label_->setVisible(!lines.isEmpty());
    emit issuesChanged(issues_);
}

// Fields that only matter for some choices are disabled otherwise, so the
// form shows what the run will actually use.
void ExperimentForm::updateDependentFields() {
    if (running_) return;
    const ExperimentConfig config = this->config();
    // A field with an issue stays editable even when it does not apply, so it can be fixed.
    const auto enable = [this](const char* key, bool on) {
        const bool flagged =
            std::any_of(issues_.begin(), issues_.end(),
                        [key](const ConfigIssue& issue) { return issue.key == key; });
        if (QWidget* w = fields_->widgetFor(key)) w->setEnabled(on || flagged);
    };
    const bool synthetic = config.dataset == "synthetic";
    enable("model_path", config.model == "torchscript");
    enable("synthetic_samples", synthetic);
    enable("image_size", synthetic);
    enable("data_dir", !synthetic);
    enable("prefetch", config.workers > 0);
    enable("pin_memory", config.device != "cpu");
    enable("momentum", config.optimizer == "sgd");
    enable("fused_optimizer", features_.torch_version.empty() || features_.fused_optimizer);
    enable("lr_step_epochs", config.schedule == "step");
    enable("lr_gamma", config.schedule == "step");
    for (const char* key : {"profile.skip_first", "profile.wait", "profile.warmup",
                            "profile.active", "profile.repeat", "profile.record_shapes",
                            "profile.profile_memory", "profile.with_flops"})
        enable(key, config.profile.enabled);
}

void ExperimentForm::setRunning(bool running) {
    running_ = running;
    fields_->setEditable(!running);
    preset_box_->setEnabled(!running);
    processes_->setEnabled(!running);
    updateDependentFields();
}

QWidget* ExperimentForm::fieldWidget(const std::string& key) const {
    return fields_->widgetFor(key);
}

} // namespace ts::gui
