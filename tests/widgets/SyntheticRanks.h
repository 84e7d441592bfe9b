#pragma once
// Rank summaries of a data-parallel job made up to a known answer, for the
// Distributed tab's tests and bench_distributed_view: `ranks` ranks of
// `steps` steps, each computing about 100 ms a step (a deterministic +-2%
// per rank and step) and then calling one all_reduce whose kernel ends when
// the slowest rank's could; `straggler` computes 1.5x as long, so the
// others wait for it about 50 ms a step.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/RankTraceSummary.h"

namespace ts::testing {

inline int64_t syntheticComputeNs(size_t rank, size_t step, int64_t straggler) {
    const uint64_t h = (rank * 2654435761u) ^ (step * 40503u);
    const int64_t base = 100'000'000 + int64_t(h % 4001) * 1000 - 2'000'000;
    return int64_t(rank) == straggler ? base * 3 / 2 : base;
}

inline std::vector<RankTraceSummary> syntheticRankSummaries(size_t ranks, size_t steps,
                                                            int64_t straggler) {
    std::vector<int64_t> slowest(steps, 0);
    for (size_t s = 0; s < steps; ++s)
        for (size_t r = 0; r < ranks; ++r)
            slowest[s] = std::max(slowest[s], syntheticComputeNs(r, s, straggler));
    std::vector<RankTraceSummary> out(ranks);
    for (size_t r = 0; r < ranks; ++r) {
        RankTraceSummary& sum = out[r];
        sum.worker = "rank-" + std::to_string(r);
        sum.rank = int64_t(r);
        sum.rank_source = RankSource::DistributedInfo;
        sum.path = "/synthetic/rank-" + std::to_string(r) + ".json";
        sum.backend = "nccl";
        sum.world_size = int64_t(ranks);
        sum.library = "NCCL";
        sum.uses_gpu = true;
        sum.devices.push_back(RankDevice{int32_t(r % 8), "GPU", 80LL << 30, 9, 0});
        sum.collective_names = {"nccl:all_reduce"};
        int64_t t = 0;
        for (size_t s = 0; s < steps; ++s) {
            const int64_t compute = syntheticComputeNs(r, s, straggler);
            const int64_t comm_end = slowest[s] + 20'000'000;
            DistributedStep d;
            d.label = std::to_string(s);
            d.start_ns = t;
            d.end_ns = t + comm_end + 10'000'000;
            d.total_ns = d.end_ns - d.start_ns;
            d.computation_ns = compute;
            d.communication_ns = comm_end - compute;
            d.other_ns = d.total_ns - d.computation_ns - d.communication_ns;
            sum.steps.push_back(d);
            sum.step_roles.push_back({});
            RankCollective c;
            c.name = 0;
            c.step = int32_t(s);
            c.bytes = 100 << 20;
            c.ranges = {{t + compute, t + compute + 50'000}, {t + compute, t + comm_end}};
            sum.collectives.push_back(std::move(c));
            t = d.end_ns;
        }
    }
    return out;
}

} // namespace ts::testing
