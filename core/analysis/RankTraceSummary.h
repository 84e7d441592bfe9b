#pragma once
// What one rank's trace gives the Distributed view, made once from the trace
// and then all the view needs: who the rank is, its steps' split, each
// collective call with its host and device ranges, and its Overview per
// step. A 1,024-rank folder is read one trace at a time into these (a few
// kB to a few hundred kB each), kept beside the trace or its index
// (RankSummaryFile.h) so that reopening the folder reads only them, and
// merged across ranks by computeDistributedView.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/DeviceActivity.h"
#include "analysis/DistributedView.h"
#include "analysis/GpuOverview.h"
#include "analysis/IdleTime.h"

namespace ts {

// One collective call of the rank (CommNode without its copy of the name).
struct RankCollective {
    uint32_t name = 0; // index into RankTraceSummary::collective_names
    int32_t step = -1; // index into RankTraceSummary::steps; -1 outside every step
    int64_t bytes = 0;
    RangeList ranges; // the host call first, then its kernels by (start, -end)
    // Its process group and number in it (CommNode::group, seq): the key
    // the ranks' calls are matched by when every call has one.
    int32_t group = -1; // index into RankTraceSummary::group_names; -1 none
    int64_t seq = -1;
};

struct RankTraceSummary {
    // Who: as RankTrace says (the file's worker name and span stamp, the rank
    // and where it came from), and what the trace says of itself.
    std::string worker, span;
    int64_t rank = -1;
    RankSource rank_source = RankSource::Order;
    std::string path; // the trace
    // The absolute time of the trace's t = 0 (its clock): ranges are relative.
    int64_t origin_ns = 0;
    std::string backend; // distributedInfo.backend, "" unknown
    int64_t world_size = -1;
    std::string library; // "NCCL", "Gloo", "NCCL+Gloo", "" none
    bool uses_gpu = false;
    std::vector<RankDevice> devices;
    // Per step its split (without data_transfer_ns and synchronizing_ns,
    // which need the other ranks) and its Overview: each role's time.
    std::vector<DistributedStep> steps;
    std::vector<std::array<int64_t, kGpuRoleCount>> step_roles;
    std::vector<std::string> collective_names;
    std::vector<RankCollective> collectives; // in time order
    std::vector<std::string> group_names;    // process groups ("0", "1", ...)
    std::string steps_note;                  // derivedStepsText, "" for ProfilerStep ranges
    // Holistic Trace Analysis' headline figure of the rank (--view temporal
    // of a folder reads it here, not from the trace): its device work's
    // temporal breakdown (rank left at 0: the summary's rank is the rank),
    // and what its device activity left out (the notes on it).
    TemporalBreakdown temporal;
    ActivityFacts activity;
    // Why this rank gives the view nothing (no torch.profiler events, no
    // collectives), in plain words naming the file; "" when it does.
    std::string problem;
};

// The summary of one rank's trace. Content that forms no view (no Kineto
// events, no collectives) is `problem`, never an exception.
RankTraceSummary summarizeRank(const RankTrace& rank, const GpuAnalysisOptions& options);

} // namespace ts
