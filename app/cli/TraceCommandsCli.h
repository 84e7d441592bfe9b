#pragma once
// The command-line form of the commands that need no LibTorch (trace-stats,
// trace-diff, trace-cache, presets), shared by the front end trainscope-cli, which runs
// them in-process, and by trainscope-cli-torch, which accepts every command.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "inspect/MemoryStatsCommand.h"
#include "inspect/TraceCacheCommand.h"
#include "inspect/TraceDiffCommand.h"
#include "inspect/TraceExportCommand.h"
#include "inspect/TraceIndexCommand.h"
#include "inspect/TraceQueryCommand.h"
#include "inspect/TraceStatsCommand.h"

namespace ts::cli {

// A view option registered on a command: its name and CLI11's record of it,
// read into the command's view_options once parsed.
struct ViewOptionSlot {
    std::string name;
    CLI::Option* option = nullptr;
};

struct TraceCommands {
    TraceStatsOptions trace;
    TraceDiffCommandOptions diff;
    TraceCacheOptions cache;
    TraceIndexOptions index;
    TraceExportOptions export_trace;
    TraceQueryOptions query;
    MemoryStatsOptions memory;
    std::vector<ViewOptionSlot> trace_view_options, export_view_options;
    CLI::App* presets_cmd = nullptr;
    CLI::App* trace_cmd = nullptr;
    CLI::App* diff_cmd = nullptr;
    CLI::App* cache_cmd = nullptr;
    CLI::App* index_cmd = nullptr;
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
