#include <algorithm>

#include "snapshot/SnapshotRecords.h"

namespace ts {

void SnapshotMemo::set(size_t index, MemoEntry entry) {
    const size_t page = index >> kShift;
    if (page >= pages_.size()) {
        // The pickle has gone on past its last page: that one is complete.
        if (!pages_.empty()) close(pages_.back());
        pages_.resize(page + 1);
    }
    Page& p = pages_[page];
    if (!p.slots) {
        if (spare_.empty()) {
            p.slots.reset(new MemoEntry[kPage]);
        } else {
            p.slots = std::move(spare_.back());
            spare_.pop_back();
        }
        for (size_t k = 0; k < kPage; ++k) // a run's slots again, or empty ones
            p.slots[k] = p.run ? MemoEntry{PV::Tag::Event, p.first + uint32_t(k)} : MemoEntry{};
        p.run = false;
    }
    p.slots[index & kMask] = entry;
    size_ = std::max(size_, index + 1);
}

void SnapshotMemo::close(Page& p) {
    if (!p.slots || p.slots[0].tag != PV::Tag::Event) return;
    const uint32_t first = p.slots[0].id;
    for (size_t k = 1; k < kPage; ++k)
        if (p.slots[k].tag != PV::Tag::Event || p.slots[k].id != first + uint32_t(k)) return;
    p.run = true;
    p.first = first;
    spare_.push_back(std::move(p.slots));
}

} // namespace ts
