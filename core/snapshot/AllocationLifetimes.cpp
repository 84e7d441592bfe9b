#include "snapshot/AllocationLifetimes.h"

#include "snapshot/SnapshotHistory.h"

namespace ts {

const std::vector<ActiveBand>& allocationLifetimes(const MemorySnapshot& s, int device) {
    return deviceHistory(s, device).lifetimes;
}

} // namespace ts
