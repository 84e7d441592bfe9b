#include "ScriptCommandCli.h"

#include <signal.h>

namespace ts::cli {
namespace {

CancelFlag stop_flag;

// Ctrl-C (or a SIGTERM) stops the script as Stop does in the GUI: the script
// gets SIGINT in its own process group, then SIGKILL after the grace period;
// the steps measured are kept.
void requestStop(int) {
    stop_flag.request();
}

} // namespace

void addScriptCommand(CLI::App& app, ScriptCommand& c) {
    auto& o = c.options;
    auto* cmd = app.add_subcommand(
        "run-script", "run your own PyTorch script under Trainscope's probe: live steps, "
                      "torch.profiler traces, a run directory (docs/script-probe.md)");
    cmd->add_option("script", o.run.script, "the script (its own arguments follow it, or --)");
    cmd->add_option("-m,--module", o.run.module, "run a module, as python -m MODULE");
    cmd->add_option("--python", o.run.python, "the interpreter (default: python3 on PATH)");
    cmd->add_option("--out", o.run.out_dir, "the run directory (default: runs/<time>-<script>)");
    cmd->add_option("--cwd", o.run.cwd, "the script's working folder (default: here)");
    cmd->add_option("--env", o.run.env, "NAME=VALUE for the script's environment (repeatable)")
        ->allow_extra_args(false);
    cmd->add_option("--set", o.sets,
                    "profile.KEY=VALUE: the profiling schedule (skip_first, wait, warmup, active, "
                    "repeat, record_shapes, profile_memory)")
        ->allow_extra_args(false);
    cmd->add_flag("--no-profile", o.no_profile, "no torch.profiler traces, steps only");
    cmd->add_flag("--with-stack", o.run.with_stack, "record Python stacks in the traces");
    cmd->add_option("--memory-every", o.run.memory_every,
                    "steps between memory-by-category figures (default 50, 0: never)");
    cmd->add_flag("--catch-slow", o.run.catch_slow,
                  "trace the steps after a step slower than the recent ones beyond their noise");
    cmd->add_option("--nproc-per-node", o.run.nproc_per_node,
                    "ranks to start with torchrun (default 1)");
    cmd->add_option("--stop-grace", o.run.stop_grace_s,
                    "seconds between Ctrl-C's SIGINT to the script and its SIGKILL (default 10)");
    cmd->add_flag("--json", o.json,
                  "print the summary as JSON (the script's output goes to stderr)");
    cmd->prefix_command(); // what follows the script is the script's
    c.command = cmd;
}

std::optional<int> runScriptCommand(ScriptCommand& c, std::ostream& out, std::ostream& err) {
    if (!*c.command) return std::nullopt;
    auto& args = c.options.run.args;
    args = c.command->remaining();
    if (!args.empty() && args.front() == "--") args.erase(args.begin());
    struct sigaction action {};
    action.sa_handler = requestStop;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    return ts::runScriptCommand(c.options, out, err, &stop_flag);
}

} // namespace ts::cli
