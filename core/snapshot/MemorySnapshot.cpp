#include "snapshot/MemorySnapshot.h"

#include <algorithm>

namespace ts {

const char* toString(AllocAction action) {
    static const char* const kNames[] = {
        "alloc",        "free_requested", "free_completed", "segment_alloc",
        "segment_free", "segment_map",    "segment_unmap",  "oom",
        "snapshot",     "unknown"};
    return kNames[size_t(action)];
}

const char* toString(BlockState state) {
    static const char* const kNames[] = {"active_allocated", "active_pending_free", "inactive",
                                         "unknown"};
    return kNames[size_t(state)];
}

std::string MemorySnapshot::frameText(const SnapshotFrame& f) const {
    const std::string& file = strings[f.filename];
    const size_t slash = file.find_last_of('/');
    return (slash == std::string::npos ? file : file.substr(slash + 1)) + ":" +
           std::to_string(f.line) + ":" + strings[f.name];
}

int MemorySnapshot::devices() const {
    int n = int(traceDevices());
    for (const SnapshotSegment& s : segments)
        n = std::max(n, s.device + 1);
    return n;
}

} // namespace ts
