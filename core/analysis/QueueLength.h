#pragma once
// Holistic Trace Analysis' queue length: per GPU stream, how many kernels,
// copies and sets the CPU had launched that had not yet started, over time
// (+1 when the runtime call that launches one begins, -1 when the work
// starts), its distribution, and the time the stream's queue was full (the
// CUDA driver blocks the launching thread then: 1024 launches per stream).
#include <cstdint>
#include <vector>

#include "analysis/DeviceActivity.h"
#include "util/Statistics.h"

namespace ts {

struct QueueLengthOptions {
    int32_t max_queue_length = 1024; // HTA's CUDA_MAX_LAUNCH_QUEUE_PER_STREAM
    // Only the launches HTA counts (cudaLaunchKernel(ExC), cuLaunchKernel(Ex),
    // cudaMemcpyAsync, cudaMemsetAsync and their HIP and MTIA kin): for the
    // comparison with HTA. Trainscope counts every launch the trace links
    // (cudaGraphLaunch's kernels and synchronous copies too).
    bool hta_calls_only = false;
};

struct QueuePoint {
    int64_t t = 0;      // ns
    int32_t length = 0; // from here until the stream's next point
};

struct StreamQueue {
    int32_t lane = -1;
    int32_t gpu = -1;
    int64_t stream = -1;
    // A point per launch and per start of work, in time order; at equal
    // times launches come first (HTA's order there is arbitrary).
    std::vector<QueuePoint> series;
    Description stats;        // over the points, as HTA's summary (not weighted by time)
    double time_mean = 0;     // weighted by time, from the first point to the last
    int64_t blocked_ns = 0;   // time at max_queue_length or more
    double blocked_share = 0; // of the trace's span (HTA's relative duration)
};

struct QueueLength {
    int64_t rank = 0;
    int32_t max_queue_length = 0;
    // HTA's trace duration: from the first event's start to the last one's
    // (of the events the diagnosis keeps).
    int64_t span_ns = 0;
    std::vector<StreamQueue> streams; // by lane
};

QueueLength queueLength(const Trace& trace, const DeviceActivities& activity,
                        const QueueLengthOptions& options = {});

// HTA's launch calls (its queue length counts these alone).
bool isHtaQueuedLaunch(std::string_view call_name);

} // namespace ts
