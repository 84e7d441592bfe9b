#include "form/TorchFeatureFields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QStandardItemModel>

#include "form/FormFields.h"

namespace ts::gui {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

// The base help of a field, kept in a property so that offering again (a
// LibTorch loaded after a test's made-up one) does not repeat the additions.
QString baseToolTip(QWidget* widget) {
    const QVariant kept = widget->property("trainscope_base_tooltip");
    if (kept.isValid()) return kept.toString();
    widget->setProperty("trainscope_base_tooltip", widget->toolTip());
    return widget->toolTip();
}

void offerChoice(QComboBox* box, const QString& value, bool offered, const QString& why) {
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    const int row = box->findText(value);
    if (!model || row < 0) return;
    QStandardItem* item = model->item(row);
    item->setEnabled(offered);
    item->setToolTip(offered ? QString() : why);
}

} // namespace

void offerTorchFeatures(FormFields& fields, const TorchFeatures& f) {
    const QString version = QObject::tr("LibTorch %1").arg(qs(f.torch_version));
    if (auto* fused = qobject_cast<QCheckBox*>(fields.widgetFor("fused_optimizer"))) {
        // Enabled or not by the form (ExperimentForm::updateDependentFields), which
        // knows whether a run holds the fields.
        const QString base = baseToolTip(fused);
        fused->setToolTip(
            f.fused_optimizer
                ? base
                : QObject::tr("Not offered: %1.\n\n%2").arg(qs(f.fused_problem), base));
    }
    if (auto* recorder = qobject_cast<QComboBox*>(fields.widgetFor("profile.recorder"))) {
        const QString base = baseToolTip(recorder);
        offerChoice(recorder, QStringLiteral("kineto"), f.kineto, qs(f.kineto_problem));
        recorder->setToolTip(
            f.kineto
                ? QObject::tr("%1\n\n%2 records with Kineto.").arg(base, version)
                : QObject::tr("%1\n\nkineto is not offered: %2.").arg(base, qs(f.kineto_problem)));
    }
    if (QWidget* script = fields.widgetFor("model_path")) {
        const QString base = baseToolTip(script);
        script->setToolTip(
            QObject::tr("%1%2 reads TorchScript archives of file format version %3 and older; "
                        "a module that calls operators newer than it is refused with their names.")
                .arg(base.isEmpty() ? QString() : base + QStringLiteral("\n\n"), version)
                .arg(f.torchscript_max_format));
    }
}

std::vector<ConfigIssue> torchFeatureIssues(const ExperimentConfig& config,
                                            const TorchFeatures& f) {
    std::vector<ConfigIssue> issues;
    if (f.torch_version.empty()) return issues;
    if (config.profile.enabled && config.profile.recorder == "kineto" && !f.kineto)
        issues.push_back({"profile.recorder", "kineto",
                          f.kineto_problem + ": choose auto (Trainscope's collector here) or "
                                             "trainscope, or load a LibTorch with Kineto "
                                             "(Settings \u25b8 LibTorch)"});
    return issues;
}

} // namespace ts::gui
