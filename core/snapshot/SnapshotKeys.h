#pragma once
// The keys and values a snapshot uses, interned first by SnapshotRecords:
// their string ids are these numbers (0 is ""), so that the reader compares
// a key by its id, never by its text. Internal to core/snapshot.
#include <cstdint>

namespace ts::snapshot_keys {

enum Known : uint32_t {
    kAction = 1,
    kAddr,
    kDeviceFree,
    kSize,
    kStream,
    kTimeUs,
    kFrames,
    kName,
    kFilename,
    kLine,
    kAddress,
    kTotalSize,
    kAllocatedSize,
    kActiveSize,
    kRequestedSize,
    kSegmentType,
    kSegmentPoolId,
    kIsExpandable,
    kBlocks,
    kState,
    kDevice,
    kHistory,
    kRealSize,
    kSegments,
    kDeviceTraces,
    kAllocatorSettings,
    kExternalAnnotations,
    kLarge,
    kSmall,
    kActiveAllocated,
    kActivePendingFree,
    kInactive,
    kAlloc,
    kFreeRequested,
    kFreeCompleted,
    kSegmentAlloc,
    kSegmentFree,
    kSegmentMap,
    kSegmentUnmap,
    kOom,
    kSnapshot,
    kKnownEnd
};

} // namespace ts::snapshot_keys
