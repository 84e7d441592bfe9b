#pragma once
// The Distributed view of one profiling span of a multi-rank run (the
// TensorBoard plugin's, docs/gpu-traces.md "Distributed view"), computed
// once from the ranks' traces, for NCCL, Gloo on GPU and Gloo on CPU:
//   - per rank and step: computation, overlapping, communication and other
//     time (the four add up to the step), and the collectives' time split
//     into data transfer and synchronizing (waiting for the slowest rank);
//   - per rank the collectives table (calls, bytes, latency, transfer time);
//   - the ranks that hold the others up (stragglers), with their numbers.
// Times are nanoseconds (the plugin's are microseconds).
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/KinetoEvents.h"
#include "trace/RankFolder.h"

namespace ts {

// One step of one rank (or the rank's average over its steps). The first
// four add up to total_ns: computation_ns and communication_ns exclude the
// time they overlap (overlapping_ns). Computation is device kernels (host
// operators when the rank ran no kernel, Gloo on CPU).
struct DistributedStep {
    std::string label; // the ProfilerStep number ("0" without steps), "all" for the average
    int64_t computation_ns = 0, overlapping_ns = 0, communication_ns = 0, other_ns = 0;
    int64_t total_ns = 0;
    // Where the step lies in its rank's trace (its own clock), to open the
    // rank there; the Overview's data-loading time within it.
    int64_t start_ns = 0, end_ns = 0;
    int64_t data_loading_ns = 0;
    // The collectives of the step: time the data moved (as fast as the
    // fastest rank moved it) and the rest, spent waiting for the others.
    bool has_communication = false;
    int64_t data_transfer_ns = 0, synchronizing_ns = 0;

    int64_t computationWithOverlapNs() const { return computation_ns + overlapping_ns; }
};

// One row of the communication operations table: one collective by name.
struct CommOpRow {
    std::string name; // "nccl:all_reduce"
    int64_t calls = 0;
    int64_t total_bytes = 0;
    int64_t total_latency_ns = 0;       // the calls' host and device ranges, merged
    int64_t total_data_transfer_ns = 0; // their data-transfer ranges, merged
    double avgBytes() const { return calls ? double(total_bytes) / double(calls) : 0; }
    double avgLatencyNs() const { return calls ? double(total_latency_ns) / double(calls) : 0; }
    double avgDataTransferNs() const {
        return calls ? double(total_data_transfer_ns) / double(calls) : 0;
    }
};

struct RankDevice {
    int32_t id = -1; // the GPU ("GPU0")
    std::string name;
    int64_t memory_bytes = 0;
    int32_t compute_major = 0, compute_minor = 0;
};

struct RankView {
    std::string worker; // file name stem ("worker0", "host_1234")
    int64_t rank = -1;
    RankSource rank_source = RankSource::Order;
    std::string path;
    // The plugin's Device Information naming: worker "<node>_<process>" ->
    // node and "Process <process>", else the worker name and "Process <i>".
    std::string node, process;
    std::string backend; // distributedInfo.backend ("nccl", "gloo"), "" unknown
    int64_t world_size = -1;
    std::string library;             // of its collectives: "NCCL", "Gloo", "NCCL+Gloo", "" none
    bool uses_gpu = false;           // any kernel, memcpy or memset
    std::vector<RankDevice> devices; // the GPUs it used, with their properties when known
    std::vector<DistributedStep> steps;
    DistributedStep average;    // label "all"
    std::vector<CommOpRow> ops; // in order of first call
    size_t collectives = 0;     // communication calls found
    size_t outside_steps = 0;   // of those, calls in no step (counted in ops, not in steps)
    // Collectives across ranks (analysis/CollectiveArrivals.h): the time it
    // waited in the calls matched on every rank, the calls it arrived last
    // at, and how long the others waited for it there (their mean wait,
    // summed over those calls). Per profiled span, not per step.
    int64_t waited_ns = 0;
    size_t last_arrivals = 0;
    int64_t caused_wait_ns = 0;
    // Its clock against the lowest rank's: the median gap between the ends of
    // the same collectives (which end together on every rank).
    int64_t clock_offset_ns = 0;
};

// One metric's distribution across the ranks (of their average step).
struct MetricSpread {
    std::string
        key; // "step", "computation", "communication", "synchronizing", "idle", "data_loading"
    std::string label; // "Step time"
    size_t ranks = 0;  // ranks with a value
    int64_t min_ns = 0, median_ns = 0, p95_ns = 0, max_ns = 0;
    std::vector<int64_t> lowest, highest; // the ranks at the tails, most extreme first
};

// The collectives matched on every rank, by how far apart the ranks arrived.
struct ArrivalSpread {
    size_t calls = 0;
    int64_t median_ns = 0, p95_ns = 0, max_ns = 0; // last arrival minus first, per call
    // "rank 517 arrives last at 812 of 900 collectives: the others wait for
    // it 3.10 ms per step"; "" without matched calls.
    std::string verdict;
};

// A rank that computes (or steps) markedly longer than the others, which then
// wait for it inside their collectives.
struct Straggler {
    int64_t rank = -1;
    std::string worker;
    // Its average computation per step: on a GPU with the kernels that
    // overlap communication, on the CPU without the time inside collectives.
    int64_t computation_ns = 0;
    int64_t others_computation_ns = 0; // the median of the other ranks'
    int64_t step_ns = 0, others_step_ns = 0;
    int64_t others_synchronizing_ns = 0; // the other ranks' median synchronizing time per step
    int64_t own_synchronizing_ns = 0;
    int64_t excessNs() const { return computation_ns - others_computation_ns; }
    // Excess over the others' median computation (0 when they compute nothing).
    double excessFraction() const {
        return others_computation_ns > 0 ? double(excessNs()) / double(others_computation_ns) : 0;
    }
    // "rank 1 computes 56 us (53%) longer per step than the median of the
    // other ranks (161 vs 105 us); they wait for it: synchronizing 464 us per
    // step (its own: 3 us)".
    std::string message;
};

// A rank is a straggler when its computation per step exceeds the other
// ranks' median by more than this share of the median step time, and the
// others' median synchronizing time (waiting in their collectives) is more
// than that share too.
inline constexpr double kStragglerStepShare = 0.05;

struct DistributedView {
    int span = 1, span_count = 1;
    bool plugin_compatible = false;
    std::vector<RankView> ranks;       // by rank
    std::vector<Straggler> stragglers; // largest excess first
    // Without stragglers, why not, in numbers: "No straggler: the busiest,
    // rank 0, computes 1.59 ms more per step than the median of the others,
    // but they wait for it 0 us per step ..."; "" when there are stragglers.
    std::string no_straggler;
    // Load imbalance: the highest rank's average computation over the mean
    // of all ranks', minus 1 (0 = balanced, 0.25 = the slowest does 25% more).
    double computation_imbalance = 0;
    // Slowest minus fastest average step time.
    int64_t step_time_spread_ns = 0;
    std::vector<std::string> notes; // what was left out or approximated, in plain words
    // Per metric its spread across the ranks (step, computation,
    // communication, synchronizing, idle, data loading).
    std::vector<MetricSpread> spreads;
    ArrivalSpread arrivals;
    // Files of the span that are not in the view, each with why ("rank-7.json:
    // cut short at byte 1,234"; "rank 5 twice: b.json left out").
    std::vector<std::string> left_out;

    bool empty() const { return ranks.empty(); }
};

// Throws std::invalid_argument in plain words when the traces cannot form a
// distributed view: no rank has torch.profiler events or collectives, or the
// ranks disagree on the number of collectives (they cannot be matched: the
// plugin then shows no view without saying why). Plugin-compatible: also
// when a collective has a different number of kernels on two ranks; the
// averages over steps are truncated to whole microseconds as the plugin's.
DistributedView computeDistributedView(const std::vector<RankTrace>& ranks,
                                       const GpuAnalysisOptions& options = {});

struct RankTraceSummary;
// The same view from the ranks' summaries (analysis/RankTraceSummary.h), which
// need not be in rank order. Never throws for one rank's content: a rank
// without collectives or events, a second file claiming a rank, a rank
// whose calls cannot be matched are left out and named in `left_out`;
// ranks with other world sizes or backends, missing ranks and disagreeing
// clocks are named in `notes`. Throws std::invalid_argument only when no
// rank is left. `strict`: the trace path's rules (every rank must form the
// view, as computeDistributedView of traces).
DistributedView computeDistributedView(std::vector<RankTraceSummary> ranks,
                                       const GpuAnalysisOptions& options, bool strict = false);

} // namespace ts
