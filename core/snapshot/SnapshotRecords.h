#pragma once
// The objects of a snapshot pickle as the machine (SnapshotPickle.cpp)
// builds them: values on its stack are 16-byte handles; a dict or list
// stays open in a reused slot until its parent takes it, when it becomes
// its record (a frame, a stack, a trace entry, a block, a segment) or stays
// a plain dict or list (allocator settings, the top level). Internal.
#include <cstdint>
#include <deque>
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
    // `release`: the original handle is being taken (not a GET of it), so
    // nothing refers to the slot but the memo: it can be reused.
    PV settleDict(uint32_t slot, bool release);
    PV settleList(uint32_t slot, bool release);
    DictSlot& dict(const PV& v);
    ListSlot& list(const PV& v);
    const std::vector<std::pair<PV, PV>>* itemsOf(const PV& dict) const;
    std::vector<PV> listItems(const PV& list) const;
    PV lookup(const std::vector<std::pair<PV, PV>>& items, uint32_t key) const;
    int64_t intOf(const PV& v) const;
    uint32_t stackOf(const PV& v) const;
    PV makeFrame(const std::vector<std::pair<PV, PV>>& items);
    PV makeStack(const std::vector<PV>& items);
    PV makeEvent(const std::pair<PV, PV>* items, size_t count);
    bool setEventItems(PV& target, PV* items, size_t n);
    PV makeBlock(const std::vector<std::pair<PV, PV>>& items);
    PV makeSegment(const std::vector<std::pair<PV, PV>>& items);
    std::string textOf(const PV& v) const;
    void readTop(const std::vector<std::pair<PV, PV>>& items);
    void readSegments(const PV& list);
    void readTraces(const PV& list);

    MemorySnapshot out_;
    std::deque<std::string> strings_; // stable: the index views them
    std::unordered_map<std::string_view, uint32_t> string_ids_;
    std::vector<DictSlot> dicts_;
    std::vector<uint32_t> free_dicts_;
    std::vector<ListSlot> lists_;
    std::vector<uint32_t> free_lists_;
    std::vector<std::vector<PV>> tuples_;
    std::vector<PV> memo_;
    std::unordered_map<uint64_t, uint32_t> frame_ids_;              // (name, file, line) hash
    std::unordered_map<uint64_t, std::vector<uint32_t>> stack_ids_; // contents hash
    std::vector<SnapshotBlock> blocks_;
    std::vector<SnapshotSegment> segments_;
};

} // namespace ts
