#pragma once
// Moving experiments between the form and the outside: JSON files chosen by
// the user, the settings (the last experiment), and the command line.
#include <QString>
#include <QStringList>

class QWidget;

namespace ts::gui {

class AppSettings;
class ExperimentForm;

void loadExperimentInteractive(QWidget* parent, AppSettings& settings, ExperimentForm& form);
void saveExperimentInteractive(QWidget* parent, AppSettings& settings, const ExperimentForm& form);

// The form's experiment as remembered between sessions.
void rememberExperiment(AppSettings& settings, const ExperimentForm& form);
void restoreExperiment(const AppSettings& settings, ExperimentForm& form);

// Preset, then config file, then key=value overrides; false with a sentence
// in `error` when one of them is bad.
bool applyExperimentSources(ExperimentForm& form, const QString& preset, const QString& configFile,
                            const QStringList& overrides, QString* error);

} // namespace ts::gui
