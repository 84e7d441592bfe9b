#pragma once
// One rank's trace of a generated rank folder (bench_rank_folder, issue #66),
// rendered from a trace that TraceRepeater wrote (a real rank trace repeated
// in time): its distributedInfo rank and world size, every timestamp and
// the compute kernels' durations are holes, the rest is kept as text, so a
// rank renders in milliseconds and a thousand ranks are as fast as the disk.
#include <cstdint>
#include <string>
#include <vector>

namespace bench {

// How one rank differs from the source trace.
struct RankTiming {
    int64_t rank = 0;
    int64_t world_size = 1;
    double compute_scale = 1;    // compute (non-NCCL) kernel durations times this
    int64_t clock_offset_ns = 0; // added to every timestamp
};

// The rank whose compute kernels are 1.5x longer: world_size * 2 / 3 + 1
// (the last rank when that is past it).
int64_t slowRank(int64_t world_size);

// Rank `rank` of `world_size`, deterministic: compute kernels scaled by
// 0.98 to 1.02 (1.5 on slowRank), clock offset -5 to +5 us.
RankTiming rankTiming(int64_t rank, int64_t world_size);

class RankTemplate {
public:
    // `text`: a trace TraceRepeater wrote, its metadata events then
    // repetitions of `events_per_repetition` events, one event a line. Keeps
    // the first `repetitions` of them. Throws std::invalid_argument when the
    // text is not laid out so or has no distributedInfo rank and world_size.
    RankTemplate(const std::string& text, int64_t events_per_repetition, int64_t repetitions);

    // Replaces `out` with the rank's trace.
    void render(const RankTiming& timing, std::string& out) const;

    // What a rendered trace holds, for checking it with Trainscope's reader:
    // events (metadata included), the first timestamp and the summed compute
    // kernel durations before the rank's changes, in ns.
    int64_t events() const { return events_; }
    int64_t firstTsNs() const { return first_ts_ns_; }
    int64_t computeNs() const { return compute_ns_; }
    int64_t computeKernels() const { return compute_kernels_; }

private:
    enum class Hole { Rank, WorldSize, Ts, ComputeDur };
    std::vector<std::string> texts_; // holes_.size() + 1 pieces
    std::vector<Hole> holes_;
    std::vector<int64_t> ns_; // per hole: the source's ts or duration in ns
    size_t rendered_bytes_ = 0;
    int64_t events_ = 0;
    int64_t first_ts_ns_ = 0;
    int64_t compute_ns_ = 0;
    int64_t compute_kernels_ = 0;
};

// Event lines (one per event) in a TraceRepeater trace.
int64_t countEventLines(const std::string& text);

} // namespace bench
