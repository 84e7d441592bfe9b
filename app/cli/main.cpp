// trainscope-cli: the front end. The commands that read traces and records
// (trace-stats, trace-diff, presets) run here, in a binary that does not link
// LibTorch, so they start at once instead of after the ~0.6 s LibTorch takes
// to load; every other command is handed to trainscope-cli-torch unchanged.
#include <iostream>

#include <CLI/CLI.hpp>

#include "ExecTorchCli.h"
#include "JobCommandsCli.h"
#include "ScriptCommandCli.h"
#include "TorchCommandList.h"
#include "TraceCommandsCli.h"
#include "inspect/ExitCodes.h"

namespace {

// Listed in --help; never parsed here (main hands them on before parsing).
void addTorchCommands(CLI::App& app, const ts::cli::CommandName* first, size_t count) {
    for (size_t i = 0; i < count; ++i)
        app.add_subcommand(first[i].name, first[i].description)->prefix_command();
}

} // namespace

int main(int argc, char** argv) {
    namespace cli = ts::cli;
    if (argc > 1 && cli::isTorchCommand(argv[1])) return cli::execTorchCli(argv);

    CLI::App app{"Trainscope: train, profile and compare neural-network training runs"};
    app.require_subcommand(1);
    addTorchCommands(app, cli::kTrainingCommands, std::size(cli::kTrainingCommands));
    cli::TraceCommands trace_commands;
    cli::addTraceCommands(app, trace_commands);
    cli::JobCommands job_commands;
    cli::addJobCommands(app, job_commands);
    cli::ScriptCommand script_command;
    cli::addScriptCommand(app, script_command);
    addTorchCommands(app, cli::kExperimentCommands, std::size(cli::kExperimentCommands));
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : ts::exit_code::kBadInput;
    }
    if (auto code = cli::runTraceCommands(trace_commands, std::cout, std::cerr)) return *code;
    if (auto code = cli::runJobCommands(job_commands, std::cout, std::cerr)) return *code;
    if (auto code = cli::runScriptCommand(script_command, std::cout, std::cerr)) return *code;
    return cli::execTorchCli(argv); // a torch command after global options
}
