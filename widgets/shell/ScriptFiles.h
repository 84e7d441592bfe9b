#pragma once
// Moving the Python script form between sessions and the command line: the
// dock's kind of run and the form's values in the settings, and --script,
// --python, --script-args.
#include <QString>

namespace ts::gui {

class AppSettings;
class RunForms;
class ScriptForm;

void rememberScript(AppSettings& settings, const RunForms& forms, const ScriptForm& form);
void restoreScript(const AppSettings& settings, RunForms& forms, ScriptForm& form);

// The Python script kind with `script` (its folder the working folder);
// `python` and `args` replace the form's when given.
void applyScriptSources(RunForms& forms, ScriptForm& form, const QString& script,
                        const QString& python, const QString& args);

} // namespace ts::gui
