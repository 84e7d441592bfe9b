#pragma once
// The objects of a snapshot pickle as the machine (SnapshotPickle.cpp)
// builds them: values on its stack are 16-byte handles; a dict or list
// stays open in a reused slot until its parent takes it, when it becomes
// its record (a frame, a stack, a trace entry, a block, a segment) or stays
// a plain dict or list (allocator settings, the top level). Internal.
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "snapshot/MemorySnapshot.h"

namespace ts {

struct PV {
    enum class Tag : uint8_t {
        None,
        Int,
        Real,
        Str,
        List,
        Dict,
        Tuple,
        Frame,
        Stack,
        Event,
        Block,
        Segment,
        MemoRef, // a GET of a dict or list still open: resolved when taken
    };
    Tag tag = Tag::None;
    uint32_t id = 0; // Str, Tuple, records: the index; List, Dict: the slot; MemoRef: the memo
    int64_t i = 0;   // Int: the value; Real: its bits; List, Dict: the slot's generation

    static PV integer(int64_t v) { return {Tag::Int, 0, v}; }
    static PV real(double d);
};

// A memo slot in 8 bytes (a snapshot memoizes an object per trace entry, so
// the memo is as long as the trace): a string, a record, a tuple, an open
// dict or list (its slot, which says whether it is still this memo's), a
// number (kept aside: CPython never memoizes numbers) or another memo.
struct MemoEntry {
    PV::Tag tag = PV::Tag::None;
    uint32_t id = 0;
};
static_assert(sizeof(MemoEntry) == 8);

// The memo, in pages of 4096 slots. A snapshot memoizes a dict per trace
// entry, one after another, so nearly every page holds nothing but a run of
// consecutive trace entries: such a page, once the next one is begun, is
// kept as its first entry's number, and its memory serves the next page.
// The memo of a 13.5 M-entry snapshot takes a few hundred kilobytes where
// it took 8 bytes an entry, 110 MB that every read touched for the first
// time (issue 62; SnapshotMemo.cpp).
class SnapshotMemo {
public:
    size_t size() const { return size_; }
    // `index` < size().
    MemoEntry at(size_t index) const {
        const Page& p = pages_[index >> kShift];
        if (p.slots) return p.slots[index & kMask];
        if (p.run) return {PV::Tag::Event, p.first + uint32_t(index & kMask)};
        return {};
    }
    void set(size_t index, MemoEntry entry);

private:
    static constexpr size_t kShift = 12, kPage = size_t(1) << kShift, kMask = kPage - 1;
    struct Page {
        std::unique_ptr<MemoEntry[]> slots; // null: empty, or a run
        bool run = false;                   // slot k is trace entry first + k
        uint32_t first = 0;
    };
    void close(Page& page); // a full run gives its slots back
    std::vector<Page> pages_;
    std::vector<std::unique_ptr<MemoEntry[]>> spare_;
    size_t size_ = 0;
};

// A field of the wrong type in a record, found when the record is made:
// where in it ("blocks[2].size"; "" the record itself) and what is wrong
// ("is a string, expected an int"). Where the record lies in the snapshot
// is known only when the top dict takes it, so finish() refuses the
// snapshot then, naming both ("segments[3].blocks[2].size is ...").
struct SnapshotFault {
    std::string path, problem;
};
// `inner` seen from what holds it at `outer` ("blocks" + "[2].size").
SnapshotFault nestedFault(const std::string& outer, SnapshotFault inner);

class SnapshotRecords {
public:
    SnapshotRecords();
    // The pickle's size: room for what it can hold.
    void expect(size_t file_bytes);
    void setProtocol(int p) { out_.protocol = p; }
    PV intern(std::string text);
    PV newList();
    PV newDict();
    PV tuple(PV* items, size_t n);
    void append(PV& list, PV* items, size_t n);
    void setItems(PV& dict, PV* items, size_t n);
    void memoize(size_t index, const PV& value);
    PV get(size_t index);
    // The memo as it stands, for SnapshotEntryScan's reads.
    const SnapshotMemo& memo() const { return memo_; }
    // A trace entry from its dict's (key, value) pairs, settled.
    PV makeEvent(const std::pair<PV, PV>* items, size_t count);
    // The snapshot from the pickle's result.
    MemorySnapshot finish(PV top);

private:
    struct DictSlot {
        std::vector<std::pair<PV, PV>> items;
        int64_t generation = 0;
        int64_t memo = -1;
        PV converted; // once taken: what it became (for handles taken before)
    };
    struct ListSlot {
        std::vector<PV> items;
        PV::Tag range_tag = PV::Tag::None; // items first..first+count of one record kind
        uint32_t first = 0, count = 0;
        bool ranged = true;
        int64_t generation = 0;
        int64_t memo = -1;
        PV converted;
    };
    // A value its parent takes: an open dict or list becomes what it holds.
    // A slot is reused once taken: the memo, and MemoRef handles through
    // it, then give what it became.
    PV settle(const PV& v);
    PV resolve(const PV& v) const;
    uint16_t streamId(int64_t stream);
    // `release`: the original handle is being taken (not a GET of it), so
    // nothing refers to the slot but the memo: it can be reused.
    PV settleDict(uint32_t slot, bool release);
    PV settleList(uint32_t slot, bool release);
    DictSlot& dict(const PV& v);
    ListSlot& list(const PV& v);
    const std::vector<std::pair<PV, PV>>* itemsOf(const PV& dict) const;
    std::vector<PV> listItems(const PV& list) const;
    PV lookup(const std::vector<std::pair<PV, PV>>& items, uint32_t key) const;
    static bool has(const std::vector<std::pair<PV, PV>>& items, uint32_t key);
    int64_t intOf(const PV& v) const;
    uint32_t stackOf(const PV& v) const;
    PV makeFrame(const std::vector<std::pair<PV, PV>>& items);
    PV makeStack(const std::vector<PV>& items);
    bool setEventItems(PV& target, PV* items, size_t n);
    PV makeBlock(const std::vector<std::pair<PV, PV>>& items);
    PV makeSegment(const std::vector<std::pair<PV, PV>>& items);
    void placeBlocks(SnapshotSegment& s, const PV& list);
    void gatherBlocks();
    std::string textOf(const PV& v) const;
    void readTop(const std::vector<std::pair<PV, PV>>& items);
    void readSegments(const PV& list);
    void readTraces(const PV& list);

    // Fields of the wrong type (SnapshotFaults.cpp). A record keeps its
    // first; the top refuses the snapshot with the first it reaches.
    using Fault = std::optional<SnapshotFault>;
    bool isList(const PV& v) const { return v.tag == PV::Tag::List || v.tag == PV::Tag::Stack; }
    // Calls `visit` with each item of a list (a stack's: its frames) until
    // it returns false.
    template <typename Visit> void forEachItem(const PV& list, Visit visit) const;
    std::string kindOf(const PV& v, PV::Tag wanted = PV::Tag::None) const;
    // "is a string, expected a list", of `v` itself.
    SnapshotFault notA(const char* expected, const PV& v, PV::Tag wanted = PV::Tag::None) const {
        return {"", "is " + kindOf(v, wanted) + ", expected " + expected};
    }
    void wrongType(Fault& fault, uint32_t key, const PV& value, const char* expected) const;
    void needNumber(Fault& fault, uint32_t key, const PV& value) const {
        if (value.tag != PV::Tag::Int && value.tag != PV::Tag::Real)
            wrongType(fault, key, value, "an int");
    }
    void needText(Fault& fault, uint32_t key, const PV& value) const {
        if (value.tag != PV::Tag::Str) wrongType(fault, key, value, "a string");
    }
    void checkFrames(Fault& fault, const PV& frames) const {
        // Nearly always a stack of sound frames: decided inline.
        if (frames.tag != PV::Tag::Stack || !faults_.empty()) checkFramesFully(fault, frames);
    }
    void checkFramesFully(Fault& fault, const PV& frames) const;
    void checkPoolId(Fault& fault, const PV& pool) const;
    void checkHistory(Fault& fault, const PV& history) const;
    // What is wrong with `list` as a list of `item` records (a list of lists
    // for PV::Tag::List), relative to it ("[2].size").
    Fault listFault(const PV& list, PV::Tag item) const;
    Fault itemFault(const PV& item, PV::Tag wanted) const;
    void keepFault(Fault& fault, const PV& record);
    const SnapshotFault* faultOf(const PV& record) const;
    // Throws the snapshot's refusal: `where` ("segments[3]") and the fault.
    [[noreturn]] void refuse(const std::string& where, const SnapshotFault& fault) const;
    void refuseIfWrong(const std::string& where, const Fault& fault) const {
        if (fault) refuse(where, *fault);
    }

    MemorySnapshot out_;
    std::deque<std::string> strings_; // stable: the index views them
    std::unordered_map<std::string_view, uint32_t> string_ids_;
    std::vector<DictSlot> dicts_;
    std::vector<uint32_t> free_dicts_;
    std::vector<ListSlot> lists_;
    std::vector<uint32_t> free_lists_;
    // Tuple t: tuple_items_[tuple_end_[t] .. tuple_end_[t + 1]).
    std::vector<PV> tuple_items_;
    std::vector<uint32_t> tuple_end_{0};
    SnapshotMemo memo_;
    std::vector<int64_t> memo_numbers_;                // MemoEntry::id of an Int or Real
    std::unordered_map<int64_t, uint16_t> stream_ids_; // MemorySnapshot::streams
    uint16_t last_stream_ = 0; // the last entry's: most entries have their neighbour's
    std::unordered_map<uint64_t, uint32_t> frame_ids_;              // (name, file, line) hash
    std::unordered_map<uint64_t, std::vector<uint32_t>> stack_ids_; // contents hash
    std::vector<SnapshotBlock> blocks_; // as made; the snapshot's blocks (placeBlocks)
    size_t blocks_in_place_ = 0;        // blocks_[0 ..) are the made segments', in order
    bool blocks_scattered_ = false;     // a segment took copies: gatherBlocks() orders them
    std::vector<SnapshotSegment> segments_;
    std::unordered_map<uint64_t, SnapshotFault> faults_; // by record (faultKey)
};

template <typename Visit> void SnapshotRecords::forEachItem(const PV& v, Visit visit) const {
    if (v.tag == PV::Tag::Stack) {
        for (uint32_t f = out_.stack_begin[v.id]; f < out_.stack_begin[v.id + 1]; ++f)
            if (!visit(PV{PV::Tag::Frame, out_.stack_frames[f], 0})) return;
        return;
    }
    if (v.tag != PV::Tag::List || lists_[v.id].generation != v.i) return;
    const ListSlot& l = lists_[v.id];
    if (!l.ranged) {
        for (const PV& item : l.items)
            if (!visit(item)) return;
        return;
    }
    for (uint32_t r = 0; r < l.count; ++r)
        if (!visit(PV{l.range_tag, l.first + r, 0})) return;
}

} // namespace ts
