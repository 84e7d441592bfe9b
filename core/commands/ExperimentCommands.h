#pragma once
// The experiment commands of trainscope-cli: sweep, ladder, advise, roofline,
// prune and compare. Each returns the process exit code (ts::exit_code):
// 0 success, 1 failure (nothing could be measured), 2 bad input.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "commands/CommandOptions.h"

namespace ts {

struct SweepOptions {
    ConfigSource source;
    std::string key = "batch_size";
    std::string values; // "16,32,64"
    std::string key2;   // optional second key of a grid
    std::string values2;
    int64_t steps = 20;
    int64_t warmup = 5;
    bool validate = false; // also measure validation accuracy per point
    double memory_margin = 0.9;
    int repeat = 3;        // rounds, for an interval per point
    double budget_min = 0; // no round starts that would end past this (0 = none)
    double confidence = 0.95;
    std::string out_dir; // empty: runs/<time>-<name>-sweep
    bool progress = true;
};

struct LadderOptions {
    ConfigSource source;
    int64_t steps = 20;
    int64_t warmup = 5;
    int64_t val_batches = 10;
    double margin = 0.03;
    int rounds = 3;     // rounds per comparison, at least
    int max_rounds = 5; // at most, while the interval straddles the margin
    double confidence = 0.95;
    std::string out_dir; // empty: runs/<time>-<name>-ladder
    bool progress = true;
};

struct AdviseOptions {
    std::string run_dir;
    bool json = false;
};

struct RooflineOptions {
    std::string run_dir;    // a profiled run, or
    std::string ncu_file;   // an Nsight Compute CSV export
    double peak_gflops = 0; // entered peaks; 0 = measure on this machine
    double peak_low_gflops = 0;
    double peak_gbs = 0;
    std::string device;  // where to measure (default: the run's device, or cpu)
    std::string out_dir; // empty: print only
    int limit = 20;
};

struct PruneCommandOptions {
    ConfigSource source;
    std::string weights;
    double amount = 0.3;
    bool structured = false;
    bool global = false;
    int norm = 1;
    bool include_linear = false;
    int latency_runs = 20;
    int64_t eval_batches = 0;
    std::string out_dir; // empty: runs/<time>-<name>-pruned
};

struct CompareOptions {
    std::vector<std::string> runs; // the first is the baseline
    std::string out_dir;           // empty: print only
};

int sweepCommand(const SweepOptions& options, std::ostream& out, std::ostream& err);
int ladderCommand(const LadderOptions& options, std::ostream& out, std::ostream& err);
int adviseCommand(const AdviseOptions& options, std::ostream& out, std::ostream& err);
int rooflineCommand(const RooflineOptions& options, std::ostream& out, std::ostream& err);
int pruneCommand(const PruneCommandOptions& options, std::ostream& out, std::ostream& err);
int compareCommand(const CompareOptions& options, std::ostream& out, std::ostream& err);

} // namespace ts
