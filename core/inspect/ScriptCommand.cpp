#include "inspect/ScriptCommand.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "config/ConfigError.h"
#include "config/ConfigJson.h"
#include "inspect/ExitCodes.h"
#include "report/RunDirectory.h"
#include "trace/Trace.h"

namespace ts {
namespace {

// What Trainscope says about the run, between the script's own lines.
class ScriptProgress : public TrainerObserver {
public:
    explicit ScriptProgress(std::ostream& err) : err_(err) {}
    void onRunStarted(const RunInfo& info) override {
        const ScriptSource& s = info.source;
        err_ << "trainscope: " << (s.script.empty() ? "-m " + s.module : s.script) << " (Python "
             << s.python_version << ", torch " << s.torch_version << ") on " << info.config.device
             << (s.world_size > 1 ? ", " + std::to_string(s.world_size) + " ranks" : "")
             << std::endl;
    }
    void onProfile(const ProfileCapture& c) override {
        err_ << "trainscope: traced steps " << c.first_step << "-" << c.last_step << std::endl;
    }
    void onMessage(LogLevel level, const std::string& text) override {
        err_ << "trainscope: "
             << (level == LogLevel::Error     ? "error: "
                 : level == LogLevel::Warning ? "warning: "
                                              : "")
             << text << std::endl;
    }
    void onRunFinished(const RunSummary& s) override {
        char line[256];
        std::snprintf(line, sizeof line,
                      "trainscope: %s, %lld steps in %.1f s; median step %.2f ms (data %.2f, fwd "
                      "%.2f, bwd %.2f, opt %.2f), %.1f samples/s",
                      toString(s.status), static_cast<long long>(s.steps_completed), s.total_time_s,
                      s.median_step_ms, s.median_phases.data_ms, s.median_phases.forward_ms,
                      s.median_phases.backward_ms, s.median_phases.optimizer_ms,
                      s.median_images_per_sec);
        err_ << line << std::endl;
    }

private:
    std::ostream& err_;
};

// --set profile.KEY=VALUE onto the script's schedule, through the one
// parser of experiment keys.
void applyProfileSets(RunScriptOptions& options) {
    ExperimentConfig config;
    config.profile = options.run.profile;
    for (const std::string& set : options.sets) {
        if (set.rfind("profile.", 0) != 0)
            throw ConfigError(
                "--set " + set +
                ": run-script takes profile.* keys only (the script chooses the rest)");
        applyOverride(config, set);
    }
    options.run.profile = config.profile;
    if (options.no_profile) options.run.profile.enabled = false;
}

} // namespace

int runScriptCommand(RunScriptOptions options, std::ostream& out, std::ostream& err,
                     const CancelFlag* stop) {
    scriptrun::ScriptRunResult result;
    try {
        applyProfileSets(options);
        ScriptProgress progress(err);
        std::ostream& script_out = options.json ? err : out;
        scriptrun::ScriptRunHooks hooks;
        hooks.observer = &progress;
        hooks.stop = stop;
        hooks.console = [&](scriptrun::ConsoleStream stream, std::string_view bytes) {
            auto& to = stream == scriptrun::ConsoleStream::Stdout ? script_out : err;
            to.write(bytes.data(), std::streamsize(bytes.size())).flush();
        };
        result = scriptrun::runScript(options.run, hooks);
    } catch (const scriptrun::InterpreterError& e) {
        err << "run-script: " << e.what() << " (with --python)\n";
        return exit_code::kBadInput;
    } catch (const std::exception& e) { // refused before it started: nothing recorded
        err << "run-script: " << e.what() << "\n";
        return exit_code::kBadInput;
    }
    err << "trainscope: run directory " << result.run_dir.string() << "\n";
    if (options.json) {
        nlohmann::json summary = {{"run_dir", result.run_dir.string()},
                                  {"status", toString(result.status)},
                                  {"steps", result.steps},
                                  {"exit_code", result.exit_code},
                                  {"error", result.error}};
        try {
            summary["summary"] = toJson(loadRun(result.run_dir, false).summary);
        } catch (const RunFormatError& e) {
            summary["error"] = e.what();
        }
        out << summary.dump(2) << "\n";
    }
    if (result.status == RunStatus::Cancelled) return result.exit_code ? result.exit_code : 130;
    return result.exit_code;
}

} // namespace ts
