#pragma once
// The command-line form of the commands that need no LibTorch (trace-stats,
// trace-diff, trace-cache, presets), shared by the front end trainscope-cli, which runs
// them in-process, and by trainscope-cli-torch, which accepts every command.
#include <optional>
#include <ostream>

#include <CLI/CLI.hpp>

#include "inspect/MemoryStatsCommand.h"
#include "inspect/TraceCacheCommand.h"
#include "inspect/TraceDiffCommand.h"
#include "inspect/TraceExportCommand.h"
#include "inspect/TraceQueryCommand.h"
#include "inspect/TraceStatsCommand.h"

namespace ts::cli {

struct TraceCommands {
    TraceStatsOptions trace;
    TraceDiffCommandOptions diff;
    TraceCacheOptions cache;
    TraceExportOptions export_trace;
    TraceQueryOptions query;
    MemoryStatsOptions memory;
    CLI::App* presets_cmd = nullptr;
    CLI::App* trace_cmd = nullptr;
    CLI::App* diff_cmd = nullptr;
    CLI::App* cache_cmd = nullptr;
    CLI::App* export_cmd = nullptr;
    CLI::App* query_cmd = nullptr;
    CLI::App* memory_cmd = nullptr;
    CLI::App* memory_diff_cmd = nullptr;
};

// Declares presets, trace-stats, trace-diff and trace-cache on `app`.
void addTraceCommands(CLI::App& app, TraceCommands& commands);

// The exit code of the one that was given on the command line; nullopt when
// none of them was.
std::optional<int> runTraceCommands(TraceCommands& commands, std::ostream& out, std::ostream& err);

} // namespace ts::cli
