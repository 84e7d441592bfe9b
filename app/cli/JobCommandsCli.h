#pragma once
// The command-line form of `jobs` and `trace-job` (inspect/JobCommands.h):
// Trainscope as Kineto's on-demand daemon, in the front end (no LibTorch).
#include <optional>
#include <ostream>

#include <CLI/CLI.hpp>

#include "inspect/JobCommands.h"

namespace ts::cli {

struct JobCommands {
    JobsOptions jobs;
    TraceJobOptions trace;
    CLI::App* jobs_cmd = nullptr;
    CLI::App* trace_cmd = nullptr;
};

void addJobCommands(CLI::App& app, JobCommands& commands);
// The exit code of the one given; nullopt when neither was.
std::optional<int> runJobCommands(const JobCommands& commands, std::ostream& out,
                                  std::ostream& err);

} // namespace ts::cli
