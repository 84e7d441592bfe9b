#include "shell/ExperimentFiles.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

#include <nlohmann/json.hpp>

#include "common/AppSettings.h"
#include "config/ConfigJson.h"
#include "form/ExperimentForm.h"

namespace ts::gui {
namespace {

const char* const kJsonFilter = "Experiment JSON (*.json);;All files (*)";

} // namespace

void loadExperimentInteractive(QWidget* parent, AppSettings& settings, ExperimentForm& form) {
    const QString path = QFileDialog::getOpenFileName(
        parent, QObject::tr("Load experiment"), settings.lastBrowseDir(), QObject::tr(kJsonFilter));
    if (path.isEmpty()) return;
    settings.setLastBrowseDir(QFileInfo(path).absolutePath());
    try {
        form.setConfig(loadConfigFile(path.toStdString()));
    } catch (const std::exception& error) {
        QMessageBox::warning(parent, QObject::tr("Load experiment"),
                             QString::fromUtf8(error.what()));
    }
}

void saveExperimentInteractive(QWidget* parent, AppSettings& settings, const ExperimentForm& form) {
    const QString name = QString::fromStdString(form.config().name) + QStringLiteral(".json");
    const QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Save experiment"),
        QFileInfo(settings.lastBrowseDir(), name).filePath(), QObject::tr(kJsonFilter));
    if (path.isEmpty()) return;
    settings.setLastBrowseDir(QFileInfo(path).absolutePath());
    try {
        saveConfigFile(form.config(), path.toStdString());
    } catch (const std::exception& error) {
        QMessageBox::warning(parent, QObject::tr("Save experiment"),
                             QString::fromUtf8(error.what()));
    }
}

void rememberExperiment(AppSettings& settings, const ExperimentForm& form) {
    settings.setLastConfigJson(QString::fromStdString(configToJson(form.config()).dump()));
    settings.setLastPreset(form.presetName());
}

void restoreExperiment(const AppSettings& settings, ExperimentForm& form) {
    const QString json = settings.lastConfigJson();
    if (!json.isEmpty()) {
        try {
            form.setConfig(
                configFromJson(nlohmann::json::parse(json.toStdString()), "the saved settings"));
            return;
        } catch (const std::exception&) {
            // Settings from an older version: fall back to a preset below.
        }
    }
    const QString preset =
        settings.lastPreset().isEmpty() ? QStringLiteral("quickstart") : settings.lastPreset();
    form.selectPreset(preset);
}

bool applyExperimentSources(ExperimentForm& form, const QString& preset, const QString& configFile,
                            const QStringList& overrides, QString* error) {
    if (!preset.isEmpty() && !form.selectPreset(preset, error)) return false;
    try {
        ExperimentConfig config =
            configFile.isEmpty() ? form.config() : loadConfigFile(configFile.toStdString());
        for (const QString& assignment : overrides)
            applyOverride(config, assignment.toStdString());
        if (!configFile.isEmpty() || !overrides.isEmpty()) form.setConfig(config);
    } catch (const std::exception& e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

} // namespace ts::gui
