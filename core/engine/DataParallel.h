#pragma once
// What the Trainer does differently as one rank of a data-parallel run, kept
// out of Trainer.cpp: the same starting weights everywhere, gradients averaged
// during backward, buffers (BatchNorm statistics) taken from rank 0 each step
// as DistributedDataParallel's broadcast_buffers does, metrics summed over the
// ranks, a stop every rank agrees on, and the ranks' figures gathered at the end.
#include <memory>
#include <string>

#include "distributed/Communicator.h"
#include "distributed/GradientReducer.h"
#include "models/Model.h"
#include "records/EvalResult.h"
#include "records/Records.h"

namespace ts {

class DataParallel {
public:
    // Collective: broadcasts rank 0's parameters and buffers, then hooks the
    // gradient buckets onto the model's parameters.
    DataParallel(std::shared_ptr<Communicator> communicator, Model& model);

    int rank() const { return comm_->rank(); }
    int worldSize() const { return comm_->worldSize(); }
    std::string backend() const { return comm_->backend(); }

    void syncBuffers();
    void beginBackward() { reducer_.beginBackward(); }
    ReduceTiming finishBackward() { return reducer_.finishBackward(); }

    // True when any rank asked to stop: every rank then stops after the same step.
    bool agreeToStop(bool requested);
    // True on every rank when `local` is true on any (one small allreduce).
    bool anyRank(bool local);
    // Sums over the ranks: a validation pass over disjoint shards becomes one
    // over the whole split; an epoch's training totals become the global ones.
    EvalResult reduce(const EvalResult& local);
    void reduceTotals(double& loss_sum, int64_t& correct, int64_t& samples);

    // Every rank's figures in rank order, with this rank's host and the
    // checksum of its final parameters. `collective` false (the run failed, a
    // rank may be gone): only this rank's, without waiting on the others.
    DistributedSummary gather(RankSummary own, bool collective);

private:
    std::shared_ptr<Communicator> comm_;
    Model& model_;
    GradientReducer reducer_;
};

} // namespace ts
