#include "form/ScriptForm.h"

#include <initializer_list>

#include <QCheckBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QRadioButton>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include "form/FormFields.h"
#include "form/InterpreterField.h"
#include "form/PathEdit.h"
#include "form/ScriptConsole.h"

namespace ts::gui {
namespace {

constexpr int kRevalidateDelayMs = 150; // after the last keystroke
constexpr int kMaxRanks = 64;
constexpr int kMaxSteps = 1000000;

// The inverse of QProcess::splitCommand: an argument with a space or a quote
// goes in double quotes, a quote in it tripled.
QString joinCommand(const std::vector<std::string>& args) {
    QStringList words;
    for (const std::string& arg : args) {
        QString word = QString::fromStdString(arg);
        if (word.contains(QLatin1Char('"')) || word.contains(QLatin1Char(' ')) ||
            word.contains(QLatin1Char('\t')))
            word = QLatin1Char('"') + word.replace(QStringLiteral("\""), QStringLiteral("\"\"\"")) +
                   QLatin1Char('"');
        words << word;
    }
    return words.join(QLatin1Char(' '));
}

std::vector<std::string> environmentLines(const QString& text) {
    std::vector<std::string> lines;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        const QString entry = line.trimmed();
        if (!entry.isEmpty()) lines.push_back(entry.toStdString());
    }
    return lines;
}

} // namespace

ScriptForm::ScriptForm(QWidget* parent)
    : QWidget(parent), python_(new InterpreterField), console_(new ScriptConsole) {
    fields_ = new QWidget;
    auto* sections = new QVBoxLayout(fields_);
    sections->setContentsMargins(0, 0, 0, 0);
    buildScriptSection(addFormSection(sections, tr("Script")));
    buildProfilingSection(addFormSection(sections, tr("Profiling")));
    sections->addStretch(1);

    issues_label_ = new QLabel;
    issues_label_->setWordWrap(true);
    issues_label_->setObjectName(QStringLiteral("scriptIssues"));
    issues_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* top = new QWidget;
    auto* top_layout = new QVBoxLayout(top);
    top_layout->setContentsMargins(0, 0, 0, 0);
    top_layout->addWidget(scrollingSections(fields_), 1);
    top_layout->addWidget(issues_label_);

    // The console takes room once a script ran; the splitter lets the user share it.
    splitter_ = new QSplitter(Qt::Vertical);
    splitter_->addWidget(top);
    splitter_->addWidget(console_);
    splitter_->setStretchFactor(0, 1);
    splitter_->setStretchFactor(1, 1);
    splitter_->setChildrenCollapsible(false);
    console_->hide();
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(6, 6, 6, 6);
    outer->addWidget(splitter_);

    revalidate_timer_.setSingleShot(true);
    revalidate_timer_.setInterval(kRevalidateDelayMs);
    connect(&revalidate_timer_, &QTimer::timeout, this, &ScriptForm::revalidate);
    connect(python_, &InterpreterField::stateChanged, this, &ScriptForm::readinessChanged);
    setOptions(scriptrun::ScriptRunOptions());
}

void ScriptForm::buildScriptSection(QFormLayout* form) {
    form->addRow(tr("Python"), python_);
    use_script_ = new QRadioButton(tr("Script file"));
    use_module_ = new QRadioButton(tr("Module (-m)"));
    use_script_->setObjectName(QStringLiteral("useScript"));
    use_module_->setObjectName(QStringLiteral("useModule"));
    auto* kind = new QHBoxLayout;
    kind->addWidget(use_script_);
    kind->addWidget(use_module_);
    kind->addStretch(1);
    form->addRow(tr("Run as"), kind);
    script_ = new PathEdit(PathEdit::Mode::File);
    script_->setObjectName(QStringLiteral("scriptPath"));
    script_->setFileFilter(tr("Python scripts (*.py);;All files (*)"));
    script_->setPlaceholderText(tr("train.py"));
    form->addRow(tr("Script"), script_);
    module_ = new QLineEdit;
    module_->setObjectName(QStringLiteral("scriptModule"));
    module_->setPlaceholderText(tr("package.train (python -m)"));
    form->addRow(tr("Module"), module_);
    args_ = new QLineEdit;
    args_->setObjectName(QStringLiteral("scriptArgs"));
    args_->setPlaceholderText(tr("--epochs 1 --batch-size 64"));
    args_->setToolTip(tr("The script's own arguments, split at spaces; \"double quotes\" keep "
                         "spaces in one argument."));
    form->addRow(tr("Arguments"), args_);
    cwd_ = new PathEdit(PathEdit::Mode::Directory);
    cwd_->setObjectName(QStringLiteral("scriptCwd"));
    form->addRow(tr("Working folder"), cwd_);
    env_ = new QPlainTextEdit;
    env_->setObjectName(QStringLiteral("scriptEnv"));
    env_->setPlaceholderText(tr("NAME=VALUE, one a line"));
    env_->setTabChangesFocus(true);
    env_->setFixedHeight(env_->fontMetrics().lineSpacing() * 3 + 12);
    env_->setToolTip(tr("Extra environment of the script, beside Trainscope's own."));
    form->addRow(tr("Environment"), env_);
    ranks_ = new QSpinBox;
    ranks_->setObjectName(QStringLiteral("scriptRanks"));
    ranks_->setRange(1, kMaxRanks);
    ranks_->setToolTip(tr("Processes on this machine, started by PyTorch's own launcher "
                          "(torchrun --nproc-per-node); 1 runs the script alone."));
    form->addRow(tr("Ranks"), ranks_);

    connect(use_script_, &QRadioButton::toggled, this, &ScriptForm::onEdited);
    connect(script_, &PathEdit::pathEdited, this, &ScriptForm::onEdited);
    connect(module_, &QLineEdit::textEdited, this, &ScriptForm::onEdited);
    connect(args_, &QLineEdit::textEdited, this, &ScriptForm::onEdited);
    connect(cwd_, &PathEdit::pathEdited, this, &ScriptForm::onEdited);
    connect(env_, &QPlainTextEdit::textChanged, this, &ScriptForm::onEdited);
    connect(ranks_, &QSpinBox::valueChanged, this, &ScriptForm::onEdited);
}

void ScriptForm::buildProfilingSection(QFormLayout* form) {
    const auto spin = [this](const char* name, int min, int max) {
        auto* box = new QSpinBox;
        box->setObjectName(QLatin1String(name));
        box->setRange(min, max);
        connect(box, &QSpinBox::valueChanged, this, &ScriptForm::onEdited);
        return box;
    };
    const auto check = [this](const char* name, const QString& text) {
        auto* box = new QCheckBox(text);
        box->setObjectName(QLatin1String(name));
        connect(box, &QCheckBox::toggled, this, &ScriptForm::onEdited);
        return box;
    };
    profile_ = check("scriptProfile", tr("Trace with torch.profiler"));
    form->addRow(QString(), profile_);
    form->addRow(tr("Skip first"), skip_first_ = spin("scriptSkipFirst", 0, kMaxSteps));
    form->addRow(tr("Wait"), wait_ = spin("scriptWait", 0, kMaxSteps));
    form->addRow(tr("Warm-up"), warmup_ = spin("scriptWarmup", 0, kMaxSteps));
    form->addRow(tr("Active"), active_ = spin("scriptActive", 1, kMaxSteps));
    form->addRow(tr("Repeat"), repeat_ = spin("scriptRepeat", 0, kMaxSteps));
    repeat_->setSpecialValueText(tr("until the end"));
    form->addRow(QString(), shapes_ = check("scriptShapes", tr("Record shapes")));
    form->addRow(QString(), memory_ = check("scriptMemory", tr("Track memory")));
    form->addRow(QString(), stacks_ = check("scriptStacks", tr("Record Python stacks")));
    memory_every_ = spin("scriptMemoryEvery", 0, kMaxSteps);
    memory_every_->setSpecialValueText(tr("never"));
    memory_every_->setSuffix(tr(" steps"));
    memory_every_->setToolTip(tr("How often the probe measures memory by category (parameters, "
                                 "gradients, optimizer state, the rest)."));
    form->addRow(tr("Memory by category every"), memory_every_);
    catch_slow_ = check("scriptCatchSlow", tr("Catch slow steps"));
    catch_slow_->setToolTip(tr("A step slower than the recent ones beyond their noise is marked, "
                               "and the steps after it are traced once."));
    form->addRow(QString(), catch_slow_);
}

scriptrun::ScriptRunOptions ScriptForm::typedOptions() const {
    scriptrun::ScriptRunOptions o;
    o.python = python_->python();
    if (use_module_->isChecked())
        o.module = module_->text().trimmed().toStdString();
    else
        o.script = script_->path().toStdString();
    for (const QString& arg : QProcess::splitCommand(args_->text()))
        o.args.push_back(arg.toStdString());
    o.cwd = cwd_->path().toStdString();
    o.env = environmentLines(env_->toPlainText());
    o.nproc_per_node = ranks_->value();
    ProfileConfig& p = o.profile;
    p.enabled = profile_->isChecked();
    p.skip_first = skip_first_->value();
    p.wait = wait_->value();
    p.warmup = warmup_->value();
    p.active = active_->value();
    p.repeat = repeat_->value();
    p.record_shapes = shapes_->isChecked();
    p.profile_memory = memory_->isChecked();
    o.with_stack = stacks_->isChecked();
    o.memory_every = memory_every_->value();
    o.catch_slow = catch_slow_->isChecked();
    return o;
}

void ScriptForm::setOptions(const scriptrun::ScriptRunOptions& o) {
    const scriptrun::ScriptRunOptions defaults;
    python_->setPath(o.python == defaults.python ? QString() : QString::fromStdString(o.python));
    {
        const QSignalBlocker block(use_script_);
        use_script_->setChecked(o.module.empty());
        use_module_->setChecked(!o.module.empty());
    }
    script_->setPath(QString::fromStdString(o.script));
    module_->setText(QString::fromStdString(o.module));
    args_->setText(joinCommand(o.args));
    cwd_->setPath(QString::fromStdString(o.cwd));
    QStringList env;
    for (const std::string& entry : o.env)
        env << QString::fromStdString(entry);
    {
        const QSignalBlocker block(env_);
        env_->setPlainText(env.join(QLatin1Char('\n')));
    }
    const std::vector<QObject*> blocked = {ranks_,  profile_, skip_first_,   wait_,
                                           warmup_, active_,  repeat_,       shapes_,
                                           memory_, stacks_,  memory_every_, catch_slow_};
    for (QObject* object : blocked)
        object->blockSignals(true);
    ranks_->setValue(o.nproc_per_node);
    profile_->setChecked(o.profile.enabled);
    skip_first_->setValue(o.profile.skip_first);
    wait_->setValue(o.profile.wait);
    warmup_->setValue(o.profile.warmup);
    active_->setValue(o.profile.active);
    repeat_->setValue(o.profile.repeat);
    shapes_->setChecked(o.profile.record_shapes);
    memory_->setChecked(o.profile.profile_memory);
    stacks_->setChecked(o.with_stack);
    memory_every_->setValue(o.memory_every);
    catch_slow_->setChecked(o.catch_slow);
    for (QObject* object : blocked)
        object->blockSignals(false);
    revalidate();
}

scriptrun::ScriptRunOptions ScriptForm::options() const {
    scriptrun::ScriptRunOptions o = typedOptions();
    if (o.cwd.empty() && !o.script.empty()) {
        const QFileInfo script(QString::fromStdString(o.script));
        if (script.isFile()) {
            o.script = script.absoluteFilePath().toStdString();
            o.cwd = script.absolutePath().toStdString();
        }
    }
    return o;
}

QString ScriptForm::startBlockedReason() const {
    if (!issues_.empty())
        return tr("Fix the highlighted fields first (%1 issues).").arg(issues_.size());
    switch (python_->state()) {
    case InterpreterField::State::Usable:
        return {};
    case InterpreterField::State::Unusable:
        return QString::fromStdString(python_->info().error);
    case InterpreterField::State::Unchecked:
    case InterpreterField::State::Checking:
        break;
    }
    return tr("Checking the interpreter %1 …").arg(QString::fromStdString(python_->python()));
}

void ScriptForm::onEdited() {
    updateDependentFields();
    revalidate_timer_.start();
}

void ScriptForm::revalidate() {
    revalidate_timer_.stop();
    issues_ = scriptrun::checkScriptOptions(options());
    updateDependentFields();
    markIssues();
    QStringList lines;
    for (const ConfigIssue& issue : issues_)
        lines << QStringLiteral("• ") + QString::fromStdString(issue.message).toHtmlEscaped();
    issues_label_->setText(lines.join(QStringLiteral("<br>")));
    issues_label_->setVisible(!lines.isEmpty());
    emit readinessChanged();
}

// The field of a problem checkScriptOptions keys by its option.
QWidget* ScriptForm::fieldOf(const ConfigIssue& issue) const {
    const std::pair<const char*, QWidget*> fields[] = {{"script", script_},
                                                       {"module", module_},
                                                       {"cwd", cwd_},
                                                       {"nproc_per_node", ranks_},
                                                       {"memory_every", memory_every_},
                                                       {"env", env_}};
    for (const auto& [key, field] : fields)
        if (issue.key == key) return field;
    return nullptr;
}

void ScriptForm::markIssues() {
    if (own_tooltips_.empty())
        for (QWidget* field :
             std::initializer_list<QWidget*>{script_, module_, cwd_, env_, ranks_, memory_every_})
            own_tooltips_.emplace_back(field, field->toolTip());
    for (auto& [field, tooltip] : own_tooltips_) {
        QStringList messages;
        for (const ConfigIssue& issue : issues_)
            if (fieldOf(issue) == field) messages << QString::fromStdString(issue.message);
        markFieldIssues(field, messages, tooltip);
    }
}

// Fields that only matter for some choices are disabled otherwise.
void ScriptForm::updateDependentFields() {
    if (running_) return;
    const bool module = use_module_->isChecked();
    script_->setEnabled(!module);
    module_->setEnabled(module);
    cwd_->setPlaceholderText(module || script_->path().isEmpty()
                                 ? tr("this program's current folder")
                                 : tr("the script's folder"));
    for (QWidget* field : std::initializer_list<QWidget*>{skip_first_, wait_, warmup_, active_,
                                                          repeat_, shapes_, memory_, stacks_})
        field->setEnabled(profile_->isChecked());
}

void ScriptForm::setRunning(bool running) {
    running_ = running;
    fields_->setEnabled(!running);
    if (!running) console_->finishRun();
    updateDependentFields();
}

void ScriptForm::beginRun() {
    console_->show();
    console_->beginRun();
}

} // namespace ts::gui
