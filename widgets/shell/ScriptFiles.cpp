#include "shell/ScriptFiles.h"

#include <QProcess>

#include <nlohmann/json.hpp>

#include "common/AppSettings.h"
#include "config/ConfigJson.h"
#include "form/RunForms.h"
#include "form/ScriptForm.h"

namespace ts::gui {
namespace {

using nlohmann::json;
using scriptrun::ScriptRunOptions;

// Calls `visit(key, member)` for each value the form remembers but the
// profiling schedule (which the experiment config's JSON reads and writes).
template <typename Visit> void eachField(Visit visit) {
    visit("python", &ScriptRunOptions::python);
    visit("script", &ScriptRunOptions::script);
    visit("module", &ScriptRunOptions::module);
    visit("args", &ScriptRunOptions::args);
    visit("cwd", &ScriptRunOptions::cwd);
    visit("env", &ScriptRunOptions::env);
    visit("nproc_per_node", &ScriptRunOptions::nproc_per_node);
    visit("with_stack", &ScriptRunOptions::with_stack);
    visit("memory_every", &ScriptRunOptions::memory_every);
    visit("catch_slow", &ScriptRunOptions::catch_slow);
}

json toJson(const ScriptRunOptions& o) {
    json j = json::object();
    eachField([&](const char* key, auto member) { j[key] = o.*member; });
    ExperimentConfig schedule;
    schedule.profile = o.profile;
    j["profile"] = configToJson(schedule)["profile"];
    return j;
}

// Keys missing (settings of an older version) keep the defaults; a value of
// the wrong type throws.
ScriptRunOptions fromJson(const json& j) {
    ScriptRunOptions o;
    eachField([&](const char* key, auto member) { o.*member = j.value(key, o.*member); });
    if (j.contains("profile"))
        o.profile = configFromJson({{"profile", j.at("profile")}}, "the saved settings").profile;
    return o;
}

} // namespace

void rememberScript(AppSettings& settings, const RunForms& forms, const ScriptForm& form) {
    settings.setLastRunKind(runKindName(forms.kind()));
    settings.setLastScriptJson(QString::fromStdString(toJson(form.typedOptions()).dump()));
}

void restoreScript(const AppSettings& settings, RunForms& forms, ScriptForm& form) {
    const QString saved = settings.lastScriptJson();
    if (!saved.isEmpty()) {
        try {
            form.setOptions(fromJson(json::parse(saved.toStdString())));
        } catch (const std::exception&) {
            // Settings written by hand or by another version: the form's defaults stay.
        }
    }
    forms.setKind(runKindFromName(settings.lastRunKind()));
}

void applyScriptSources(RunForms& forms, ScriptForm& form, const QString& script,
                        const QString& python, const QString& args) {
    scriptrun::ScriptRunOptions options = form.typedOptions();
    options.script = script.toStdString();
    options.module.clear();
    options.cwd.clear();
    if (!python.isEmpty()) options.python = python.toStdString();
    if (!args.isNull()) {
        options.args.clear();
        for (const QString& arg : QProcess::splitCommand(args))
            options.args.push_back(arg.toStdString());
    }
    form.setOptions(options);
    forms.setKind(RunKind::Script);
}

} // namespace ts::gui
