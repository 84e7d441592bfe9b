#include "snapshot/SnapshotRecords.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>

#ifdef __linux__
#include <sys/mman.h>
#endif

#include "snapshot/SnapshotKeys.h"
#include "snapshot/SnapshotPickle.h"

namespace ts {
namespace {

using namespace snapshot_keys;

// The texts of SnapshotKeys.h's ids, in their order.
constexpr const char* kKnownText[] = {"",
                                      "action",
                                      "addr",
                                      "device_free",
                                      "size",
                                      "stream",
                                      "time_us",
                                      "frames",
                                      "name",
                                      "filename",
                                      "line",
                                      "address",
                                      "total_size",
                                      "allocated_size",
                                      "active_size",
                                      "requested_size",
                                      "segment_type",
                                      "segment_pool_id",
                                      "is_expandable",
                                      "blocks",
                                      "state",
                                      "device",
                                      "history",
                                      "real_size",
                                      "segments",
                                      "device_traces",
                                      "allocator_settings",
                                      "external_annotations",
                                      "large",
                                      "small",
                                      "active_allocated",
                                      "active_pending_free",
                                      "inactive",
                                      "alloc",
                                      "free_requested",
                                      "free_completed",
                                      "segment_alloc",
                                      "segment_free",
                                      "segment_map",
                                      "segment_unmap",
                                      "oom",
                                      "snapshot"};
static_assert(std::size(kKnownText) == kKnownEnd);

// Transparent huge pages for the two big arrays, where the kernel gives them
// on request (THP "madvise", Debian's default): a 2 MB page faults once
// where 4 KB pages fault 512 times, and first touches of the arrays' pages
// were a quarter of the read.
void adviseHugePages(const void* data, size_t bytes) {
#ifdef __linux__
    constexpr uintptr_t kHuge = uintptr_t(2) << 20;
    const uintptr_t begin = (uintptr_t(data) + kHuge - 1) & ~(kHuge - 1);
    const uintptr_t end = (uintptr_t(data) + bytes) & ~(kHuge - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)data, (void)bytes;
#endif
}

// push_back for the vectors that grow with the file (blocks, segments, list
// slots): a bigger buffer is advised onto huge pages before anything is
// copied into it (a vector's own growth would touch half of it first).
template <typename T> void pushBig(std::vector<T>& v, T x) {
    if (v.size() == v.capacity()) {
        std::vector<T> bigger;
        bigger.reserve(std::max<size_t>(2 * v.capacity(), 1024));
        adviseHugePages(bigger.data(), bigger.capacity() * sizeof(T));
        std::move(v.begin(), v.end(), std::back_inserter(bigger));
        v.swap(bigger);
    }
    v.push_back(std::move(x));
}

[[noreturn]] void fail(const std::string& what) {
    throw SnapshotPickleError(what);
}

uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

AllocAction actionOf(uint32_t id) {
    if (id >= kAlloc && id <= kSnapshot) return AllocAction(id - kAlloc);
    return AllocAction::Unknown;
}

} // namespace

bool SnapshotRecords::has(const std::vector<std::pair<PV, PV>>& items, uint32_t key) {
    for (const auto& [k, v] : items)
        if (k.tag == PV::Tag::Str && k.id == key) return true;
    return false;
}

PV PV::real(double d) {
    int64_t bits;
    std::memcpy(&bits, &d, 8);
    return {Tag::Real, 0, bits};
}

void SnapshotRecords::expect(size_t file_bytes) {
    // Room made once instead of doubling: a doubling vector's old and new
    // buffers both count in the peak, and the new one is memory touched for
    // the first time, which costs more than the read's work (issue 62: a
    // snapshot with few segments, 53 bytes an entry, outgrew room for one
    // entry per 60 bytes and touched 1.9x its entries). CPython writes a
    // trace entry in 45 bytes or more (47 to 65 in the files measured), each
    // with a memoized dict; room reserved is only address space until used.
    out_.events.reserve(file_bytes / 40);
    adviseHugePages(out_.events.data(), out_.events.capacity() * sizeof(AllocEvent));
}

SnapshotRecords::SnapshotRecords() {
    for (const char* text : kKnownText)
        intern(text);
    out_.frames.push_back({}); // frame 0: never used, so that 0 can mean "none"
    stream_ids_.emplace(0, 0);
}

PV SnapshotRecords::intern(std::string text) {
    const auto found = string_ids_.find(text);
    if (found != string_ids_.end()) return {PV::Tag::Str, found->second, 0};
    strings_.push_back(std::move(text));
    const auto id = uint32_t(strings_.size() - 1);
    string_ids_.emplace(strings_.back(), id);
    return {PV::Tag::Str, id, 0};
}

PV SnapshotRecords::newList() {
    uint32_t slot;
    if (!free_lists_.empty()) {
        slot = free_lists_.back();
        free_lists_.pop_back();
    } else {
        slot = uint32_t(lists_.size());
        pushBig(lists_, ListSlot{});
    }
    ListSlot& l = lists_[slot];
    const int64_t generation = l.generation + 1;
    std::vector<PV> items = std::move(l.items); // its capacity, for the next list
    items.clear();
    l = ListSlot{};
    l.items = std::move(items);
    l.generation = generation;
    return {PV::Tag::List, slot, generation};
}

PV SnapshotRecords::newDict() {
    uint32_t slot;
    if (!free_dicts_.empty()) {
        slot = free_dicts_.back();
        free_dicts_.pop_back();
    } else {
        slot = uint32_t(dicts_.size());
        dicts_.emplace_back();
    }
    DictSlot& d = dicts_[slot];
    const int64_t generation = d.generation + 1;
    d.items.clear();
    d.memo = -1;
    d.converted = {};
    d.generation = generation;
    return {PV::Tag::Dict, slot, generation};
}

SnapshotRecords::DictSlot& SnapshotRecords::dict(const PV& ref) {
    const PV v = resolve(ref);
    // The fast path leaves a trace entry's record where its dict was.
    if (v.tag == PV::Tag::Event) fail("the pickle adds to a trace entry it already completed");
    if (v.tag != PV::Tag::Dict) fail("SETITEMS on something that is not a dict");
    DictSlot& d = dicts_[v.id];
    if (d.generation != v.i) fail("the pickle refers to a dict it has already used up");
    return d;
}

SnapshotRecords::ListSlot& SnapshotRecords::list(const PV& ref) {
    const PV v = resolve(ref);
    if (v.tag != PV::Tag::List) fail("APPENDS on something that is not a list");
    ListSlot& l = lists_[v.id];
    if (l.generation != v.i) fail("the pickle refers to a list it has already used up");
    return l;
}

PV SnapshotRecords::tuple(PV* items, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        const PV item = settle(items[i]);
        tuple_items_.push_back(item);
    }
    tuple_end_.push_back(uint32_t(tuple_items_.size()));
    return {PV::Tag::Tuple, uint32_t(tuple_end_.size() - 2), 0};
}

void SnapshotRecords::append(PV& target, PV* items, size_t n) {
    for (size_t k = 0; k < n; ++k) {
        const PV item = settle(items[k]);
        ListSlot& l = list(target); // settle may grow lists_
        const bool record = item.tag == PV::Tag::Event || item.tag == PV::Tag::Block ||
                            item.tag == PV::Tag::Segment;
        if (l.ranged && record &&
            (l.count == 0 || (item.tag == l.range_tag && item.id == l.first + l.count))) {
            if (l.count == 0) l.range_tag = item.tag, l.first = item.id;
            ++l.count;
            continue;
        }
        if (l.ranged) { // no longer one run of records: items of their own
            for (uint32_t r = 0; r < l.count; ++r)
                l.items.push_back({l.range_tag, l.first + r, 0});
            l.ranged = false;
        }
        l.items.push_back(item);
    }
}

// A trace entry's items come in one SETITEMS on a fresh dict: the entry is
// made from them at once, without keeping them (most of a snapshot's dicts
// are entries).
bool SnapshotRecords::setEventItems(PV& target, PV* items, size_t n) {
    constexpr size_t kMaxPairs = 16;
    if (n < 2 || n > 2 * kMaxPairs || !dict(target).items.empty()) return false;
    bool action = false;
    for (size_t k = 0; k + 1 < n && !action; k += 2)
        action = items[k].tag == PV::Tag::Str && items[k].id == kAction;
    if (!action) return false;
    std::array<std::pair<PV, PV>, kMaxPairs> kv;
    size_t m = 0;
    for (size_t k = 0; k + 1 < n; k += 2)
        kv[m++] = {settle(items[k]), settle(items[k + 1])};
    const PV made = makeEvent(kv.data(), m);
    DictSlot& d = dict(target);
    d.converted = made;
    if (d.memo >= 0) memo_.set(size_t(d.memo), {made.tag, made.id});
    return true;
}

void SnapshotRecords::setItems(PV& target, PV* items, size_t n) {
    if (dict(target).converted.tag != PV::Tag::None)
        fail("the pickle adds to a trace entry it already completed");
    if (setEventItems(target, items, n)) return;
    for (size_t k = 0; k + 1 < n; k += 2) {
        const PV key = settle(items[k]);
        const PV value = settle(items[k + 1]);
        DictSlot& d = dict(target);
        // Python semantics: a key set again keeps its place.
        bool replaced = false;
        if (key.tag == PV::Tag::Str)
            for (auto& [k2, v2] : d.items)
                if (k2.tag == PV::Tag::Str && k2.id == key.id) v2 = value, replaced = true;
        if (!replaced) d.items.emplace_back(key, value);
    }
}

void SnapshotRecords::memoize(size_t index, const PV& value) {
    // A dict or list memoized here before is no longer this memo's: taking
    // it must not overwrite what the memo holds now.
    const MemoEntry before = index < memo_.size() ? memo_.at(index) : MemoEntry{};
    if (before.tag == PV::Tag::Dict && dicts_[before.id].memo == int64_t(index))
        dicts_[before.id].memo = -1;
    if (before.tag == PV::Tag::List && lists_[before.id].memo == int64_t(index))
        lists_[before.id].memo = -1;
    MemoEntry entry{value.tag, value.id};
    if (value.tag == PV::Tag::Int || value.tag == PV::Tag::Real) {
        entry.id = uint32_t(memo_numbers_.size());
        memo_numbers_.push_back(value.i);
    }
    if (value.tag == PV::Tag::Dict) dicts_[value.id].memo = int64_t(index);
    if (value.tag == PV::Tag::List) lists_[value.id].memo = int64_t(index);
    memo_.set(index, entry);
}

PV SnapshotRecords::get(size_t index) {
    const MemoEntry e = index < memo_.size() ? memo_.at(index) : MemoEntry{};
    if (e.tag == PV::Tag::None)
        fail("the pickle refers to memo " + std::to_string(index) + ", which it never set");
    if (e.tag == PV::Tag::Dict || e.tag == PV::Tag::List)
        return {PV::Tag::MemoRef, uint32_t(index), 0};
    if (e.tag == PV::Tag::Int || e.tag == PV::Tag::Real) return {e.tag, 0, memo_numbers_[e.id]};
    return {e.tag, e.id, 0};
}

// A memo's dict or list is the slot's current one while the slot says it is
// this memo's; otherwise generation 0, which no slot has: "already used up".
PV SnapshotRecords::resolve(const PV& v) const {
    if (v.tag != PV::Tag::MemoRef) return v;
    const MemoEntry e = memo_.at(v.id);
    if (e.tag == PV::Tag::Dict)
        return {e.tag, e.id, dicts_[e.id].memo == int64_t(v.id) ? dicts_[e.id].generation : 0};
    if (e.tag == PV::Tag::List)
        return {e.tag, e.id, lists_[e.id].memo == int64_t(v.id) ? lists_[e.id].generation : 0};
    if (e.tag == PV::Tag::Int || e.tag == PV::Tag::Real) return {e.tag, 0, memo_numbers_[e.id]};
    return {e.tag, e.id, 0};
}

PV SnapshotRecords::settle(const PV& ref) {
    const PV v = resolve(ref);
    const bool release = ref.tag != PV::Tag::MemoRef;
    if (v.tag == PV::Tag::Dict) {
        if (dicts_[v.id].generation != v.i)
            fail("the pickle refers to a dict it has already used up");
        return settleDict(v.id, release);
    }
    if (v.tag == PV::Tag::List) {
        if (lists_[v.id].generation != v.i)
            fail("the pickle refers to a list it has already used up");
        return settleList(v.id, release);
    }
    return v;
}

PV SnapshotRecords::settleDict(uint32_t slot, bool release) {
    if (dicts_[slot].converted.tag != PV::Tag::None) {
        const PV made = dicts_[slot].converted;
        if (release) free_dicts_.push_back(slot);
        return made;
    }
    const std::vector<std::pair<PV, PV>>& items = dicts_[slot].items;
    PV made;
    if (has(items, kAction))
        made = makeEvent(items.data(), items.size());
    else if (has(items, kBlocks) || has(items, kTotalSize))
        made = makeSegment(items);
    else if (has(items, kState))
        made = makeBlock(items);
    else if (has(items, kName) && has(items, kFilename))
        made = makeFrame(items);
    else
        return {PV::Tag::Dict, slot, dicts_[slot].generation}; // stays a dict
    DictSlot& d = dicts_[slot];
    if (d.memo >= 0) memo_.set(size_t(d.memo), {made.tag, made.id});
    d.converted = made;
    d.items.clear(); // the slot is reused with its capacity
    if (release) free_dicts_.push_back(slot);
    return made;
}

PV SnapshotRecords::settleList(uint32_t slot, bool release) {
    if (lists_[slot].converted.tag != PV::Tag::None) {
        const PV made = lists_[slot].converted;
        if (release) free_lists_.push_back(slot);
        return made;
    }
    ListSlot& l = lists_[slot];
    bool frames = !l.ranged || l.count == 0;
    for (const PV& item : l.items)
        frames = frames && item.tag == PV::Tag::Frame;
    if (!frames) return {PV::Tag::List, slot, l.generation}; // records or plain values
    const PV made = makeStack(l.items);
    ListSlot& after = lists_[slot];
    if (after.memo >= 0) memo_.set(size_t(after.memo), {made.tag, made.id});
    after.converted = made;
    after.items.clear();
    if (release) free_lists_.push_back(slot);
    return made;
}

PV SnapshotRecords::lookup(const std::vector<std::pair<PV, PV>>& items, uint32_t key) const {
    for (const auto& [k, v] : items)
        if (k.tag == PV::Tag::Str && k.id == key) return v;
    return {};
}

int64_t SnapshotRecords::intOf(const PV& v) const {
    if (v.tag == PV::Tag::Int) return v.i;
    if (v.tag == PV::Tag::Real) {
        double d;
        std::memcpy(&d, &v.i, 8);
        return d > -9e18 && d < 9e18 ? int64_t(d) : 0;
    }
    return 0;
}

uint32_t SnapshotRecords::stackOf(const PV& v) const {
    return v.tag == PV::Tag::Stack ? v.id : 0;
}

PV SnapshotRecords::makeFrame(const std::vector<std::pair<PV, PV>>& items) {
    const PV name = lookup(items, kName), file = lookup(items, kFilename);
    SnapshotFrame f;
    f.name = name.tag == PV::Tag::Str ? name.id : 0;
    f.filename = file.tag == PV::Tag::Str ? file.id : 0;
    f.line = intOf(lookup(items, kLine));
    Fault fault;
    needText(fault, kName, name);
    needText(fault, kFilename, file);
    if (has(items, kLine)) needNumber(fault, kLine, lookup(items, kLine));
    if (fault) { // kept apart, with its fault
        out_.frames.push_back(f);
        const PV made{PV::Tag::Frame, uint32_t(out_.frames.size() - 1), 0};
        keepFault(fault, made);
        return made;
    }
    const uint64_t h = mix(mix(mix(0, f.name), f.filename), uint64_t(f.line));
    auto [it, added] = frame_ids_.emplace(h, uint32_t(out_.frames.size()));
    const SnapshotFrame& seen = out_.frames[it->second];
    if (!added && (seen.name != f.name || seen.filename != f.filename || seen.line != f.line)) {
        // A hash collision: keep the frame apart (rare, so not indexed).
        out_.frames.push_back(f);
        return {PV::Tag::Frame, uint32_t(out_.frames.size() - 1), 0};
    }
    if (added) out_.frames.push_back(f);
    return {PV::Tag::Frame, it->second, 0};
}

PV SnapshotRecords::makeStack(const std::vector<PV>& items) {
    if (items.empty()) return {PV::Tag::Stack, 0, 0};
    uint64_t h = items.size();
    for (const PV& f : items)
        h = mix(h, f.id);
    std::vector<uint32_t>& candidates = stack_ids_[h];
    for (uint32_t s : candidates) {
        if (out_.stackSize(s) != items.size()) continue;
        bool same = true;
        for (size_t i = 0; i < items.size() && same; ++i)
            same = out_.stack_frames[out_.stack_begin[s] + i] == items[i].id;
        if (same) return {PV::Tag::Stack, s, 0};
    }
    for (const PV& f : items)
        out_.stack_frames.push_back(f.id);
    out_.stack_begin.push_back(uint32_t(out_.stack_frames.size()));
    const auto id = uint32_t(out_.stack_begin.size() - 2);
    candidates.push_back(id);
    const PV made{PV::Tag::Stack, id, 0};
    for (size_t i = 0; i < items.size() && !faults_.empty(); ++i)
        if (const SnapshotFault* f = faultOf(items[i])) {
            Fault fault = nestedFault("[" + std::to_string(i) + "]", *f);
            keepFault(fault, made);
            break;
        }
    return made;
}

PV SnapshotRecords::makeEvent(const std::pair<PV, PV>* items, size_t count) {
    AllocEvent e;
    Fault fault;
    for (size_t i = 0; i < count; ++i) {
        const auto& [k, v] = items[i];
        if (k.tag != PV::Tag::Str) continue;
        switch (k.id) {
        case kAction:
            needText(fault, k.id, v);
            e.action = v.tag == PV::Tag::Str ? actionOf(v.id) : AllocAction::Unknown;
            break;
        case kAddr:
        case kDeviceFree:
            needNumber(fault, k.id, v);
            e.addr = intOf(v);
            break;
        case kSize:
            needNumber(fault, k.id, v);
            e.size = intOf(v);
            break;
        case kStream:
            needNumber(fault, k.id, v);
            e.stream_id = streamId(intOf(v));
            break;
        case kTimeUs:
            needNumber(fault, k.id, v);
            e.time_us = intOf(v);
            break;
        case kFrames:
            checkFrames(fault, v);
            e.stack = stackOf(v);
            break;
        default:
            break;
        }
    }
    pushBig(out_.events, e);
    const PV made{PV::Tag::Event, uint32_t(out_.events.size() - 1), 0};
    keepFault(fault, made);
    return made;
}

uint16_t SnapshotRecords::streamId(int64_t stream) {
    if (stream == out_.streams[last_stream_]) return last_stream_;
    const auto [it, added] = stream_ids_.emplace(stream, uint16_t(out_.streams.size()));
    if (added) {
        if (out_.streams.size() > 0xffff) fail("the trace uses more than 65,536 streams");
        out_.streams.push_back(stream);
    }
    last_stream_ = it->second;
    return last_stream_;
}

PV SnapshotRecords::makeBlock(const std::vector<std::pair<PV, PV>>& items) {
    SnapshotBlock b;
    b.address = has(items, kAddress) ? intOf(lookup(items, kAddress)) : -1;
    b.size = intOf(lookup(items, kSize));
    b.requested_size = has(items, kRequestedSize) ? intOf(lookup(items, kRequestedSize)) : b.size;
    b.stack = stackOf(lookup(items, kFrames));
    const PV state = lookup(items, kState);
    b.state = state.tag != PV::Tag::Str        ? BlockState::Unknown
              : state.id == kActiveAllocated   ? BlockState::ActiveAllocated
              : state.id == kActivePendingFree ? BlockState::ActivePendingFree
              : state.id == kInactive          ? BlockState::Inactive
                                               : BlockState::Unknown;
    // PyTorch 2.0: the size asked for and the stack are in history[0].
    const std::vector<PV> history = listItems(lookup(items, kHistory));
    if (!history.empty())
        if (const auto* first = itemsOf(history.front())) {
            b.requested_size = intOf(lookup(*first, kRealSize));
            b.stack = stackOf(lookup(*first, kFrames));
        }
    pushBig(blocks_, b);
    const PV made{PV::Tag::Block, uint32_t(blocks_.size() - 1), 0};
    Fault fault;
    for (const auto& [k, v] : items) {
        if (k.tag != PV::Tag::Str) continue;
        if (k.id == kAddress || k.id == kSize || k.id == kRequestedSize) needNumber(fault, k.id, v);
        if (k.id == kState) needText(fault, k.id, v);
        if (k.id == kFrames) checkFrames(fault, v);
        if (k.id == kHistory) checkHistory(fault, v);
    }
    keepFault(fault, made);
    return made;
}

PV SnapshotRecords::makeSegment(const std::vector<std::pair<PV, PV>>& items) {
    SnapshotSegment s;
    s.device = int32_t(intOf(lookup(items, kDevice)));
    s.address = intOf(lookup(items, kAddress));
    s.total_size = intOf(lookup(items, kTotalSize));
    s.allocated_size = intOf(lookup(items, kAllocatedSize));
    s.active_size = intOf(lookup(items, kActiveSize));
    s.requested_size = intOf(lookup(items, kRequestedSize));
    s.stream = intOf(lookup(items, kStream));
    const PV type = lookup(items, kSegmentType);
    s.large = !(type.tag == PV::Tag::Str && type.id == kSmall);
    s.expandable = intOf(lookup(items, kIsExpandable)) != 0;
    s.stack = stackOf(lookup(items, kFrames));
    const PV pool = lookup(items, kSegmentPoolId);
    if (pool.tag == PV::Tag::Tuple && tuple_end_[pool.id + 1] - tuple_end_[pool.id] == 2) {
        s.pool_first = intOf(tuple_items_[tuple_end_[pool.id]]);
        s.pool_second = intOf(tuple_items_[tuple_end_[pool.id] + 1]);
    }
    Fault fault;
    for (const auto& [k, v] : items) {
        if (k.tag != PV::Tag::Str) continue;
        switch (k.id) {
        case kDevice:
        case kAddress:
        case kTotalSize:
        case kAllocatedSize:
        case kActiveSize:
        case kRequestedSize:
        case kStream:
        case kIsExpandable:
            needNumber(fault, k.id, v);
            break;
        case kSegmentType:
            needText(fault, k.id, v);
            break;
        case kSegmentPoolId:
            checkPoolId(fault, v);
            break;
        case kFrames:
            checkFrames(fault, v);
            break;
        case kBlocks:
            if (Fault f = listFault(v, PV::Tag::Block); f && !fault)
                fault = nestedFault("blocks", *f);
            break;
        default:
            break;
        }
    }
    placeBlocks(s, lookup(items, kBlocks));
    pushBig(segments_, s);
    const PV made{PV::Tag::Segment, uint32_t(segments_.size() - 1), 0};
    keepFault(fault, made);
    return made;
}

// The blocks tile the segment. Its list is nearly always the blocks made
// since the last segment's, with addresses: they stay where they were made
// (blocks_ becomes the snapshot's blocks as it is: no second copy). Other
// lists get copies at the end, each with its address (PyTorch 2.0 gave
// none: counted from the segment's), and finish() puts the segments'
// blocks in order, as they were made.
void SnapshotRecords::placeBlocks(SnapshotSegment& s, const PV& list) {
    if (list.tag == PV::Tag::List && lists_[list.id].generation == list.i) {
        const ListSlot& l = lists_[list.id];
        bool in_place =
            l.ranged &&
            (l.count == 0 || (l.range_tag == PV::Tag::Block && l.first == blocks_in_place_));
        for (uint32_t b = 0; b < l.count && in_place; ++b)
            in_place = blocks_[l.first + b].address >= 0;
        if (in_place) {
            s.first_block = uint32_t(blocks_in_place_);
            s.block_count = l.count;
            blocks_in_place_ += l.count;
            return;
        }
    }
    const std::vector<PV> blocks = listItems(list);
    if (blocks.empty()) {
        s.first_block = uint32_t(blocks_in_place_), s.block_count = 0;
        return;
    }
    blocks_scattered_ = true;
    s.first_block = uint32_t(blocks_.size());
    int64_t offset = s.address;
    for (const PV& b : blocks) {
        if (b.tag != PV::Tag::Block) continue;
        SnapshotBlock block = blocks_[b.id];
        if (block.address < 0) block.address = offset;
        offset = block.address + block.size;
        pushBig(blocks_, block);
    }
    s.block_count = uint32_t(blocks_.size() - s.first_block);
}

// Every segment's blocks, in the order the segments were made.
void SnapshotRecords::gatherBlocks() {
    if (!blocks_scattered_ && blocks_in_place_ == blocks_.size()) return;
    std::vector<SnapshotBlock> gathered;
    for (SnapshotSegment& s : segments_) {
        const auto first = uint32_t(gathered.size());
        gathered.insert(gathered.end(), blocks_.begin() + s.first_block,
                        blocks_.begin() + s.first_block + s.block_count);
        s.first_block = first;
    }
    blocks_ = std::move(gathered);
}

const std::vector<std::pair<PV, PV>>* SnapshotRecords::itemsOf(const PV& v) const {
    if (v.tag != PV::Tag::Dict || dicts_[v.id].generation != v.i) return nullptr;
    return &dicts_[v.id].items;
}

std::vector<PV> SnapshotRecords::listItems(const PV& v) const {
    if (v.tag != PV::Tag::List || lists_[v.id].generation != v.i) return {};
    const ListSlot& l = lists_[v.id];
    if (!l.ranged) return l.items;
    std::vector<PV> out;
    for (uint32_t r = 0; r < l.count; ++r)
        out.push_back({l.range_tag, l.first + r, 0});
    return out;
}

std::string SnapshotRecords::textOf(const PV& v) const {
    switch (v.tag) {
    case PV::Tag::Str:
        return strings_[v.id];
    case PV::Tag::Int:
        return std::to_string(v.i);
    case PV::Tag::Real: {
        double d;
        std::memcpy(&d, &v.i, 8);
        char text[32];
        std::snprintf(text, sizeof text, "%g", d);
        return text;
    }
    case PV::Tag::Dict: {
        std::string out = "{";
        if (const auto* items = itemsOf(v))
            for (const auto& [k, value] : *items)
                out += (out.size() > 1 ? ", " : "") + textOf(k) + ": " + textOf(value);
        return out + "}";
    }
    case PV::Tag::None:
        return "None";
    default:
        return "...";
    }
}

void SnapshotRecords::readSegments(const PV& v) {
    refuseIfWrong("segments", listFault(v, PV::Tag::Segment));
    if (v.tag == PV::Tag::List && lists_[v.id].generation == v.i) {
        const ListSlot& l = lists_[v.id];
        if (l.ranged && l.range_tag == PV::Tag::Segment && l.first == 0 &&
            l.count == segments_.size() && out_.segments.empty()) {
            out_.segments = std::move(segments_); // the usual case: every segment, in order
            segments_.clear();
            return;
        }
    }
    for (const PV& s : listItems(v))
        if (s.tag == PV::Tag::Segment && s.id < segments_.size())
            out_.segments.push_back(segments_[s.id]);
}

// device_traces: one list per device, each one run of trace entries (in the
// order they were made, which is the file's); an empty list is device d's.
void SnapshotRecords::readTraces(const PV& v) {
    out_.has_device_traces = true;
    out_.trace_begin.assign(1, 0);
    refuseIfWrong("device_traces", listFault(v, PV::Tag::List));
    size_t device = 0;
    forEachItem(v, [&](const PV& d) {
        refuseIfWrong("device_traces[" + std::to_string(device++) + "]",
                      listFault(d, PV::Tag::Event));
        return true;
    });
    const std::vector<PV> devices = listItems(v); // [] is a Stack: no device
    size_t expected = 0;
    bool contiguous = true;
    for (const PV& d : devices) {
        if (d.tag != PV::Tag::List) continue;
        const ListSlot& l = lists_[d.id];
        contiguous = contiguous && l.ranged &&
                     (l.count == 0 || (l.range_tag == PV::Tag::Event && l.first == expected));
        expected += l.count;
    }
    if (contiguous && expected == out_.events.size()) {
        // The usual case: the events are already device after device.
        size_t at = 0;
        for (const PV& d : devices) {
            at += d.tag == PV::Tag::List ? lists_[d.id].count : 0;
            out_.trace_begin.push_back(at);
        }
        return;
    }
    std::vector<AllocEvent> ordered;
    for (const PV& d : devices) {
        for (const PV& e : listItems(d))
            if (e.tag == PV::Tag::Event) ordered.push_back(out_.events[e.id]);
        out_.trace_begin.push_back(ordered.size());
    }
    out_.events = std::move(ordered);
}

void SnapshotRecords::readTop(const std::vector<std::pair<PV, PV>>& items) {
    for (const auto& [k, v] : items) {
        if (k.tag != PV::Tag::Str) continue;
        if (k.id == kSegments) readSegments(v);
        if (k.id == kDeviceTraces) readTraces(v);
        if (k.id == kAllocatorSettings) {
            const auto* settings = itemsOf(v);
            if (!settings) refuse("allocator_settings", notA("a dict", v));
            for (const auto& [sk, sv] : *settings)
                out_.allocator_settings.emplace_back(textOf(sk), textOf(sv));
        }
        if (k.id == kExternalAnnotations) {
            if (!isList(v)) refuse("external_annotations", notA("a list", v));
            forEachItem(v, [&](const PV&) { return ++out_.external_annotations, true; });
        }
    }
}

MemorySnapshot SnapshotRecords::finish(PV top) {
    top = settle(top);
    gatherBlocks();
    out_.blocks = std::move(blocks_);
    if (top.tag == PV::Tag::Dict) {
        const auto* items = itemsOf(top);
        if (!has(*items, kSegments) && !has(*items, kDeviceTraces))
            fail("not a memory snapshot: its dict has neither 'segments' nor 'device_traces'");
        readTop(*items);
    } else if (top.tag == PV::Tag::List || top.tag == PV::Tag::Stack) {
        // Before PyTorch 2.0: a bare list of segments.
        bool empty = true, segments = false;
        forEachItem(top, [&](const PV& item) {
            empty = false;
            segments = item.tag == PV::Tag::Segment;
            return !segments;
        });
        if (!empty && !segments) fail("not a memory snapshot: a list, but not of segments");
        readSegments(top);
    } else if (top.tag == PV::Tag::Segment) {
        if (const SnapshotFault* f = faultOf(top)) refuse("", *f);
        out_.segments.push_back(segments_[top.id]);
    } else {
        fail("not a memory snapshot: the pickle holds a single value, not a dict of segments "
             "and device_traces");
    }
    if (!out_.has_device_traces) out_.events.clear(); // stray entries outside any device
    out_.strings.assign(std::make_move_iterator(strings_.begin()),
                        std::make_move_iterator(strings_.end()));
    return std::move(out_);
}

} // namespace ts
