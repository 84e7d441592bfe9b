#include "shell/LibTorchDialog.h"

#include <cstdlib>

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace ts::gui {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

LibTorchDialog::LibTorchDialog(const QString& chosen, const std::vector<BackendModule>& modules,
                               const QString& loaded, QWidget* parent)
    : QDialog(parent), choices_(new QVBoxLayout), group_(new QButtonGroup(this)), loaded_(loaded) {
    setWindowTitle(tr("LibTorch"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("Training runs on one LibTorch, loaded once when Trainscope starts: the choice "
           "takes effect at the next start. A module that does not load there (a library "
           "missing) is passed over for the next, and the status bar says why."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    if (const char* env = std::getenv("TRAINSCOPE_TORCH_BACKEND"); env && *env) {
        auto* note = new QLabel(tr("TRAINSCOPE_TORCH_BACKEND is set (%1): it decides while it is "
                                   "set.")
                                    .arg(QString::fromLocal8Bit(env)));
        note->setWordWrap(true);
        layout->addWidget(note);
    }
    layout->addLayout(choices_);
    addChoice(tr("The newest that loads (automatic)"), QString(),
              tr("Newest LibTorch first; one that does not load is passed over."));
    for (const BackendModule& module : modules)
        listModule(module);
    // A chosen module that is no longer found stays listed, so that the
    // setting is seen and can be changed.
    int selected = 0;
    if (!chosen.isEmpty()) selected = listModule(describeBackendModule(chosen.toStdString()));
    group_->button(selected)->setChecked(true);

    auto* add = new QPushButton(tr("Add Module File…"));
    connect(add, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("LibTorch module"), QString(),
            tr("Trainscope LibTorch modules (libtrainscope_torch_backend-*.so);;All files (*)"));
        if (!file.isEmpty()) addModule(describeBackendModule(file.toStdString()));
    });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->addButton(add, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

void LibTorchDialog::addModule(const BackendModule& module) {
    group_->button(listModule(module))->setChecked(true);
}

int LibTorchDialog::listModule(const BackendModule& module) {
    const QString path = qs(module.path.string());
    if (const int known = static_cast<int>(paths_.indexOf(path)); known >= 0) return known;
    QString text = qs(module.label());
    if (!loaded_.isEmpty() && path == loaded_) text += tr(" \u2014 loaded now");
    addChoice(text, path, path);
    return static_cast<int>(paths_.size()) - 1;
}

void LibTorchDialog::addChoice(const QString& text, const QString& path, const QString& details) {
    auto* button = new QRadioButton(text);
    button->setToolTip(details);
    group_->addButton(button, static_cast<int>(paths_.size()));
    paths_ << path;
    choices_->addWidget(button);
    auto* where = new QLabel(details);
    where->setContentsMargins(24, 0, 0, 6);
    where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    where->setEnabled(false); // greyed: a detail, not a choice
    choices_->addWidget(where);
}

QString LibTorchDialog::choice() const {
    const int id = group_->checkedId();
    return id >= 0 && id < paths_.size() ? paths_.at(id) : QString();
}

} // namespace ts::gui
