// trainscope-cli: the headless front end. Parsing only; every command lives in
// core/commands so the GUI and tests share it.
#include <csignal>
#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>

#include "commands/Commands.h"
#include "commands/TraceStatsCommand.h"

namespace {

void addConfigOptions(CLI::App* cmd, ts::ConfigSource& source) {
    cmd->add_option("--preset", source.preset, "named experiment (see `presets`)");
    cmd->add_option("--config", source.config_file, "experiment JSON file")->check(CLI::ExistingFile);
    cmd->add_option("--set", source.overrides, "override a config key: key=value (repeatable)");
}

// Ctrl-C cancels the run (it stops within one step and saves what it has);
// a second Ctrl-C exits at once. Signals are taken by a thread via sigwait so
// no work happens in a signal handler.
void watchInterrupts() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread([set] {
        int signal = 0;
        for (int count = 0;; ++count) {
            sigwait(&set, &signal);
            if (count > 0) std::_Exit(130);
            std::cerr << "\ninterrupted: stopping after this step (Ctrl-C again to abort)\n";
            ts::cancelRunningExperiment();
        }
    }).detach();
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Trainscope: train, profile and compare neural-network training runs"};
    app.require_subcommand(1);

    ts::RunOptions run;
    auto* run_cmd = app.add_subcommand("run", "train an experiment and record the run directory");
    addConfigOptions(run_cmd, run.source);
    run_cmd->add_option("--out", run.out_dir, "run directory (default: runs/<time>-<name>)");
    run_cmd->add_flag("--json", run.json, "print the summary as JSON on stdout");
    bool no_progress = false;
    run_cmd->add_flag("--no-progress", no_progress, "no progress bar");

    ts::EvaluateOptions eval;
    auto* eval_cmd = app.add_subcommand("evaluate", "loss and accuracy of weights on a dataset");
    addConfigOptions(eval_cmd, eval.source);
    eval_cmd->add_option("--weights", eval.weights, "checkpoint, state_dict or TorchScript file")
        ->required()->check(CLI::ExistingFile);
    eval_cmd->add_option("--split", eval.split, "test or train");
    eval_cmd->add_flag("--json", eval.json, "JSON output");

    ts::ModelInfoOptions info;
    auto* info_cmd = app.add_subcommand("model-info", "parameters and forward MACs per layer");
    info_cmd->add_option("--model", info.model, "resnet18, resnet34 or resnet50");
    info_cmd->add_option("--stem", info.stem, "imagenet or cifar");
    info_cmd->add_option("--input-size", info.input_size, "input height and width");
    info_cmd->add_option("--in-channels", info.in_channels, "input channels");
    info_cmd->add_option("--num-classes", info.num_classes, "classifier outputs");
    info_cmd->add_flag("--json", info.json, "JSON output");

    ts::EnvOptions env;
    auto* env_cmd = app.add_subcommand("env", "LibTorch, CPU features, BLAS, oneDNN, devices");
    env_cmd->add_flag("--json", env.json, "JSON output");

    auto* presets_cmd = app.add_subcommand("presets", "list the shipped experiment presets");

    ts::TraceStatsOptions trace;
    auto* trace_cmd = app.add_subcommand("trace-stats", "operator table of a Chrome trace file");
    trace_cmd->add_option("file", trace.file, "trace.json (Trainscope or torch.profiler)")->required();
    trace_cmd->add_option("--format", trace.format, "text, csv or json");
    trace_cmd->add_option("--group-by", trace.group_by, "name or shapes");
    trace_cmd->add_option("--scope", trace.scope, "all, forward or backward");
    trace_cmd->add_option("--sort", trace.sort, "column to sort by");
    trace_cmd->add_option("--limit", trace.limit, "rows to print (0 = all)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : ts::exit_code::kBadInput;
    }

    if (*run_cmd) {
        run.progress = !no_progress;
        watchInterrupts();
        return ts::runExperimentCommand(run, std::cout, std::cerr);
    }
    if (*eval_cmd) return ts::evaluateCommand(eval, std::cout, std::cerr);
    if (*info_cmd) return ts::modelInfoCommand(info, std::cout, std::cerr);
    if (*env_cmd) return ts::envCommand(env, std::cout, std::cerr);
    if (*presets_cmd) return ts::presetsCommand(std::cout, std::cerr);
    if (*trace_cmd) return ts::runTraceStats(trace, std::cout, std::cerr);
    return ts::exit_code::kBadInput;
}
