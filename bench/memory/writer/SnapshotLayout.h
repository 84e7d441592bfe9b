#pragma once
// The objects of a snapshot as _dump_snapshot pickles them, and PyTorch's
// sharing: one dict per distinct frame and one list per distinct traceback,
// written once and then referred to by memo (BINGET), as pickle does for an
// object it has seen; every key and state string likewise. The pools are
// make_snapshot.py's (frame_pool, stack_pool), drawn from the same random
// numbers.
#include <cstdint>
#include <string>
#include <vector>

#include "PickleWriter.h"
#include "PythonRandom.h"
#include "ToyAllocator.h"

namespace ts::snapgen {

struct PoolFrame {
    uint32_t name = 0, filename = 0; // texts
    int64_t line = 0;
};

// The texts a snapshot writes: the fixed ones first (Text), then the frames'.
enum Text : uint32_t {
    kSegments,
    kDeviceTraces,
    kAllocatorSettings,
    kExternalAnnotations,
    kDevice,
    kAddress,
    kTotalSize,
    kAllocatedSize,
    kActiveSize,
    kRequestedSize,
    kStream,
    kSegmentType,
    kSegmentPoolId,
    kIsExpandable,
    kFrames,
    kBlocks,
    kSize,
    kState,
    kAction,
    kAddr,
    kDeviceFree,
    kTimeUs,
    kName,
    kFilename,
    kLine,
    kLarge,
    kSmall,
    kActiveAllocated,
    kActivePendingFree,
    kInactive,
    kAlloc, // the actions, in Action's order
    kFreeRequested,
    kFreeCompleted,
    kSegmentAlloc,
    kSegmentFree,
    kOom,
    kAllocConf,
    kMaxSplitSize,
    kGcThreshold,
    kExpandableSegments,
    kRoundupDivisions,
    kEmpty,
    kOne,
    kTwo,
    kFixedTexts
};

class SnapshotLayout {
public:
    // Draws the pools from `rng` (make_snapshot.py's first draws).
    explicit SnapshotLayout(PythonRandom& rng);
    uint32_t stackCount() const { return uint32_t(stacks_.size()); }

    // One writer per file; the memo starts afresh.
    void start(PickleWriter& w);
    void text(uint32_t id);
    void stack(uint32_t s);
    void entry(const Entry& e);
    void segment(const ToySegment& s, int device);
    void allocatorSettings();

private:
    void frame(uint32_t f);
    void block(const ToyBlock& b);

    std::vector<std::string> texts_;
    std::vector<PoolFrame> frames_;
    std::vector<std::vector<uint32_t>> stacks_; // frames, innermost first; [0] empty
    PickleWriter* w_ = nullptr;
    // Memo indices of what was written already (-1: not yet).
    std::vector<int64_t> text_memo_, frame_memo_, stack_memo_;
    int64_t pool_id_memo_ = -1; // the one (0, 0) tuple every segment shares
};

} // namespace ts::snapgen
