// The memory documents that are not traces: PyTorch's allocator snapshots
// and torch.profiler's export_memory_timeline rows.
#include "snapshot/SnapshotReader.h"
#include "sources/SourceOpeners.h"

namespace ts::sources {

void openers::allocatorSnapshot(Document& doc, const SourceProbe& probe, const OpenRequest&) {
    doc.snapshot = std::make_shared<const MemorySnapshot>(readMemorySnapshot(probe.path.string()));
}

void openers::memoryTimeline(Document& doc, const SourceProbe& probe, const OpenRequest&) {
    doc.categories =
        std::make_shared<const CategoryTimeline>(readCategoryTimeline(probe.path.string()));
}

} // namespace ts::sources
