#pragma once
// Averages gradients over the ranks while backward still runs, as PyTorch's
// DistributedDataParallel does (its Reducer's header is not shipped by Debian,
// so the bucketing is ours; the collectives are c10d's):
// - parameters are grouped into buckets in reverse order of registration,
//   about the order backward produces their gradients: a small first bucket
//   (1 MiB) so communication starts early, then about 25 MiB each;
// - a hook on each parameter's gradient accumulator notes when its gradient
//   is final; when a bucket's last gradient arrives, the bucket is copied into
//   one flat buffer and its allreduce starts without waiting;
// - after backward, buckets whose parameters got no gradient are sent too
//   (zeros), every allreduce is waited on and the averages copied back.
#include <chrono>
#include <cstddef>
#include <memory>
#include <vector>

#include <ATen/core/Tensor.h>

#include "distributed/Communicator.h"

namespace ts {

// One step's communication, in milliseconds.
struct ReduceTiming {
    double allreduce_ms = 0;  // union of the buckets' [launch, completion] intervals
    double overlapped_ms = 0; // the part of it inside backward
    double comm_wait_ms = 0;  // waiting after backward for the last allreduce
    int buckets = 0;
};

class GradientReducer {
public:
    static constexpr size_t kFirstBucketBytes = size_t(1) << 20;
    static constexpr size_t kBucketBytes = size_t(25) << 20;

    GradientReducer(Communicator& comm, const std::vector<at::Tensor>& parameters,
                    size_t first_bucket_bytes = kFirstBucketBytes,
                    size_t bucket_bytes = kBucketBytes);
    ~GradientReducer();
    GradientReducer(const GradientReducer&) = delete;
    GradientReducer& operator=(const GradientReducer&) = delete;

    // Arms the hooks for one backward pass.
    void beginBackward();
    // After backward returned: sends what the hooks did not, waits for every
    // bucket and leaves each parameter's gradient averaged over the ranks.
    // Throws DistributedError when a rank is gone or the timeout passes.
    ReduceTiming finishBackward();

    // Indices of each bucket's parameters (counting only the parameters that
    // require gradients, in the order given), buckets in launch order.
    std::vector<std::vector<size_t>> bucketLayout() const;

    struct State; // shared with the autograd hooks, which may outlive this

private:
    std::shared_ptr<State> state_;
};

} // namespace ts
