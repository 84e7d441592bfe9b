// trainscope-cli-torch: every trainscope-cli command, with LibTorch loaded.
// The front end trainscope-cli (main.cpp) execs it for the commands that
// train or measure. Parsing only; every command lives in core/commands (and
// core/inspect) so the GUI and tests share it.
#include <cerrno>
#include <csignal>
#include <functional>
#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>
#include <unistd.h>

#include "JobCommandsCli.h"
#include "ScriptCommandCli.h"
#include "TorchCommandList.h"
#include "TraceCommandsCli.h"
#include "commands/Commands.h"
#include "commands/ExperimentCommands.h"

#ifdef TRAINSCOPE_WITH_QT_CHARTS
#include "charts/OffscreenChartRenderer.h"
#endif

namespace {

void addConfigOptions(CLI::App* cmd, ts::ConfigSource& source) {
    cmd->add_option("--preset", source.preset, "named experiment (see `presets`)");
    cmd->add_option("--config", source.config_file, "experiment JSON file")
        ->check(CLI::ExistingFile);
    cmd->add_option("--set", source.overrides, "override a config key: key=value (repeatable)");
}

// Ctrl-C (SIGINT) or SIGTERM cancels the running experiment: it stops within
// one step and saves what it has; a second signal exits at once. Threads that
// LibTorch's BLAS starts before main() would receive a signal that is merely
// blocked in ours, so a handler is installed instead; it only writes a byte to
// a pipe, and a watcher thread does the work outside signal context.
int g_signal_pipe[2] = {-1, -1};

extern "C" void onTerminationSignal(int) {
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(g_signal_pipe[1], &byte, 1);
}

void watchInterrupts() {
    if (::pipe(g_signal_pipe) != 0) return;
    struct sigaction action {};
    action.sa_handler = onTerminationSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (const int sig : {SIGINT, SIGTERM}) {
        struct sigaction previous {};
        sigaction(sig, nullptr, &previous);
        // A shell starts background jobs with SIGINT ignored; keep it so.
        if (sig == SIGINT && previous.sa_handler == SIG_IGN) continue;
        sigaction(sig, &action, nullptr);
    }
    std::thread([] {
        char byte = 0;
        for (int count = 0;; ++count) {
            const auto got = ::read(g_signal_pipe[0], &byte, 1);
            if (got < 0 && errno == EINTR) continue;
            if (got != 1) return;
            if (count > 0) std::_Exit(130);
            std::cerr << "\ninterrupted: stopping after this step (Ctrl-C again to abort)\n";
            ts::cancelRunningExperiment();
        }
    }).detach();
}

} // namespace

int main(int argc, char** argv) {
#ifdef TRAINSCOPE_WITH_QT_CHARTS
    // Cheap: Qt starts only when the first chart is drawn.
    ts::gui::installOffscreenChartRenderer();
#endif
    CLI::App app{"Trainscope: train, profile and compare neural-network training runs"};
    app.require_subcommand(1);

    ts::RunOptions run;
    auto* run_cmd = app.add_subcommand("run", ts::cli::torchCommandDescription("run"));
    addConfigOptions(run_cmd, run.source);
    run_cmd->add_option("--out", run.out_dir, "run directory (default: runs/<time>-<name>)");
    run_cmd->add_flag("--json", run.json, "print the summary as JSON on stdout");
    bool no_progress = false;
    run_cmd->add_flag("--no-progress", no_progress, "no progress bar");
    run_cmd
        ->add_option("--nproc-per-node", run.launch.nproc_per_node,
                     "data-parallel: ranks (processes) on this machine")
        ->check(CLI::Range(1, 1024));
    run_cmd->add_option("--nnodes", run.launch.nnodes, "data-parallel: machines in the job")
        ->check(CLI::Range(1, 4096));
    run_cmd->add_option("--node-rank", run.launch.node_rank, "this machine's index, 0 to nnodes-1");
    run_cmd->add_option("--master-addr", run.launch.master_addr,
                        "address of node 0, which hosts the rendezvous");
    run_cmd->add_option("--master-port", run.launch.master_port,
                        "rendezvous port on node 0 (0: a free one, single node only)");
    run_cmd->add_option("--dist-timeout", run.launch.timeout_s,
                        "seconds a silent rank may take before the job fails (default 60)");

    ts::EvaluateOptions eval;
    auto* eval_cmd = app.add_subcommand("evaluate", ts::cli::torchCommandDescription("evaluate"));
    addConfigOptions(eval_cmd, eval.source);
    eval_cmd->add_option("--weights", eval.weights, "checkpoint, state_dict or TorchScript file")
        ->required()
        ->check(CLI::ExistingFile);
    eval_cmd->add_option("--split", eval.split, "test or train");
    eval_cmd->add_flag("--json", eval.json, "JSON output");

    ts::ModelInfoOptions info;
    auto* info_cmd =
        app.add_subcommand("model-info", ts::cli::torchCommandDescription("model-info"));
    info_cmd->add_option("--model", info.model, "resnet18, resnet34 or resnet50");
    info_cmd->add_option("--stem", info.stem, "imagenet or cifar");
    info_cmd->add_option("--input-size", info.input_size, "input height and width");
    info_cmd->add_option("--in-channels", info.in_channels, "input channels");
    info_cmd->add_option("--num-classes", info.num_classes, "classifier outputs");
    info_cmd->add_flag("--json", info.json, "JSON output");

    ts::EnvOptions env;
    auto* env_cmd = app.add_subcommand("env", ts::cli::torchCommandDescription("env"));
    env_cmd->add_flag("--json", env.json, "JSON output");

    ts::cli::TraceCommands trace_commands;
    ts::cli::addTraceCommands(app, trace_commands);
    ts::cli::JobCommands job_commands;
    ts::cli::addJobCommands(app, job_commands);
    ts::cli::ScriptCommand script_command;
    ts::cli::addScriptCommand(app, script_command);

    // --- experiments: sweep, ladder, advise, roofline, prune, compare ------------
    ts::SweepOptions sweep;
    auto* sweep_cmd = app.add_subcommand("sweep", ts::cli::torchCommandDescription("sweep"));
    addConfigOptions(sweep_cmd, sweep.source);
    sweep_cmd->add_option("--key", sweep.key,
                          "config key to sweep (default batch_size), or processes: data-parallel "
                          "jobs of 1, 2, ... local ranks, with a scaling chart");
    sweep_cmd->add_option("--values", sweep.values, "comma-separated values, e.g. 16,32,64")
        ->required();
    sweep_cmd->add_option("--key2", sweep.key2, "second key: sweep the grid of both");
    sweep_cmd->add_option("--values2", sweep.values2, "values of --key2");
    sweep_cmd->add_option("--steps", sweep.steps, "measured steps per point");
    sweep_cmd->add_option("--warmup", sweep.warmup, "warm-up steps per point (not measured)");
    sweep_cmd->add_option("--repeat", sweep.repeat,
                          "rounds over all points, in alternating order, for an interval per "
                          "point (3; 1 = one run each)");
    sweep_cmd->add_option("--budget", sweep.budget_min,
                          "minutes: no further round starts that would end past this");
    sweep_cmd->add_option("--confidence", sweep.confidence, "of the intervals (0.95)");
    sweep_cmd->add_flag("--validate", sweep.validate, "also measure validation accuracy");
    sweep_cmd->add_option("--memory-margin", sweep.memory_margin,
                          "share of free memory a point may be predicted to need (0.9)");
    sweep_cmd->add_option("--out", sweep.out_dir, "output directory");
    bool sweep_quiet = false;
    sweep_cmd->add_flag("--no-progress", sweep_quiet, "no per-step progress");

    ts::LadderOptions ladder;
    auto* ladder_cmd = app.add_subcommand("ladder", ts::cli::torchCommandDescription("ladder"));
    addConfigOptions(ladder_cmd, ladder.source);
    ladder_cmd->add_option("--steps", ladder.steps, "measured steps per run");
    ladder_cmd->add_option("--warmup", ladder.warmup, "warm-up steps per run (not measured)");
    ladder_cmd->add_option("--rounds", ladder.rounds,
                           "rounds per rung, each the best so far and the candidate (3, >= 2)");
    ladder_cmd->add_option("--max-rounds", ladder.max_rounds,
                           "more rounds, up to this, while the gain's interval straddles the "
                           "margin (5)");
    ladder_cmd->add_option("--confidence", ladder.confidence, "of the gain intervals (0.95)");
    ladder_cmd->add_option("--val-batches", ladder.val_batches, "validation batches (0 = all)");
    ladder_cmd->add_option("--margin", ladder.margin, "keep a rung above this gain (0.03)");
    ladder_cmd->add_option("--out", ladder.out_dir, "output directory");
    bool ladder_quiet = false;
    ladder_cmd->add_flag("--no-progress", ladder_quiet, "no per-step progress");

    ts::AdviseOptions advise;
    auto* advise_cmd = app.add_subcommand("advise", ts::cli::torchCommandDescription("advise"));
    advise_cmd->add_option("run", advise.run_dir, "run directory")->required();
    advise_cmd->add_flag("--json", advise.json, "JSON output");

    ts::RooflineOptions roofline;
    auto* roofline_cmd =
        app.add_subcommand("roofline", ts::cli::torchCommandDescription("roofline"));
    roofline_cmd->add_option("--run", roofline.run_dir, "profiled run directory");
    roofline_cmd->add_option("--ncu", roofline.ncu_file, "Nsight Compute CSV export");
    roofline_cmd->add_option("--peak-gflops", roofline.peak_gflops, "fp32 peak (GFLOP/s)");
    roofline_cmd->add_option("--peak-low-gflops", roofline.peak_low_gflops,
                             "bf16/fp16 peak (GFLOP/s)");
    roofline_cmd->add_option("--peak-gbs", roofline.peak_gbs, "memory bandwidth (GB/s)");
    roofline_cmd->add_option("--device", roofline.device, "where to measure the peaks");
    roofline_cmd->add_option("--limit", roofline.limit, "operators to print (0 = all)");
    roofline_cmd->add_option("--out", roofline.out_dir,
                             "write roofline.csv, peaks.json, roofline.png/.pdf (Qt build)");

    ts::PruneCommandOptions prune;
    auto* prune_cmd = app.add_subcommand("prune", ts::cli::torchCommandDescription("prune"));
    addConfigOptions(prune_cmd, prune.source);
    prune_cmd->add_option("--weights", prune.weights, "checkpoint or state_dict")->required();
    prune_cmd->add_option("--amount", prune.amount, "share of weights or channels (0.3)");
    prune_cmd->add_flag("--structured", prune.structured, "zero whole output channels");
    prune_cmd->add_flag("--global", prune.global, "one threshold over all layers");
    prune_cmd->add_option("--norm", prune.norm, "structured: 1 (L1) or 2 (L2)");
    prune_cmd->add_flag("--include-linear", prune.include_linear, "also the fc layer");
    prune_cmd->add_option("--latency-runs", prune.latency_runs, "timed forward passes");
    prune_cmd->add_option("--eval-batches", prune.eval_batches, "test batches (0 = config's)");
    prune_cmd->add_option("--out", prune.out_dir, "output directory");

    ts::CompareOptions compare;
    auto* compare_cmd = app.add_subcommand("compare", ts::cli::torchCommandDescription("compare"));
    compare_cmd->add_option("runs", compare.runs, "run directories (first = baseline)")->required();
    compare_cmd->add_option("--out", compare.out_dir,
                            "write comparison.csv, report.md, PNG/PDF charts (Qt build)");

    const std::vector<std::pair<CLI::App*, std::function<int()>>> experiment_cmds = {
        {sweep_cmd,
         [&] {
             sweep.progress = !sweep_quiet;
             return ts::sweepCommand(sweep, std::cout, std::cerr);
         }},
        {ladder_cmd,
         [&] {
             ladder.progress = !ladder_quiet;
             return ts::ladderCommand(ladder, std::cout, std::cerr);
         }},
        {advise_cmd, [&] { return ts::adviseCommand(advise, std::cout, std::cerr); }},
        {roofline_cmd, [&] { return ts::rooflineCommand(roofline, std::cout, std::cerr); }},
        {prune_cmd, [&] { return ts::pruneCommand(prune, std::cout, std::cerr); }},
        {compare_cmd, [&] { return ts::compareCommand(compare, std::cout, std::cerr); }},
    };

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
    if (auto code = ts::cli::runTraceCommands(trace_commands, std::cout, std::cerr)) return *code;
    if (auto code = ts::cli::runJobCommands(job_commands, std::cout, std::cerr)) return *code;
    if (auto code = ts::cli::runScriptCommand(script_command, std::cout, std::cerr)) return *code;
    for (const auto& [cmd, run_command] : experiment_cmds)
        if (*cmd) {
            watchInterrupts(); // sweeps, ladders and pruning stop between steps too
            return run_command();
        }
    return ts::exit_code::kBadInput;
}
