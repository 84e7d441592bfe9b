#include "shell/ExperimentFiles.h"

#include <nlohmann/json.hpp>

#include "common/AppSettings.h"
#include "common/ExportFile.h"
#include "config/ConfigJson.h"
#include "form/ExperimentForm.h"

namespace ts::gui {
namespace {

const char* const kJsonFilter = "Experiment JSON (*.json);;All files (*)";

} // namespace

void loadExperimentInteractive(QWidget* parent, AppSettings& settings, ExperimentForm& form) {
    const QString path = chooseFileInteractive(parent, settings, QObject::tr("Load experiment"),
                                               QObject::tr(kJsonFilter));
    if (path.isEmpty()) return;
    try {
        form.setConfig(loadConfigFile(path.toStdString()));
    } catch (const std::exception& error) {
        warnFailure(parent, QObject::tr("Load experiment"), QString::fromUtf8(error.what()));
    }
}

void saveExperimentInteractive(QWidget* parent, AppSettings& settings, const ExperimentForm& form) {
    const QString name = QString::fromStdString(form.config().name) + QStringLiteral(".json");
    exportFileInteractive(parent, settings, QObject::tr("Save experiment"), name,
                          QObject::tr(kJsonFilter), [&form](const QString& path, QString* error) {
                              try {
                                  saveConfigFile(form.config(), path.toStdString());
                                  return true;
                              } catch (const std::exception& e) {
                                  if (error) *error = QString::fromUtf8(e.what());
                                  return false;
                              }
                          });
}

void rememberExperiment(AppSettings& settings, const ExperimentForm& form) {
    settings.setLastConfigJson(QString::fromStdString(configToJson(form.config()).dump()));
    settings.setLastPreset(form.presetName());
    settings.setLastProcesses(form.processes());
}

void restoreExperiment(const AppSettings& settings, ExperimentForm& form) {
    form.setProcesses(settings.lastProcesses());
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
