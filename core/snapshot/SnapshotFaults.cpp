// SnapshotRecords' checks of field types: a snapshot whose segments are a
// string, or whose sizes are lists, is refused naming the field and where it
// is, rather than read as an empty or a smaller snapshot. A missing field is
// no fault (PyTorch's versions differ in what they write); None is one
// (PyTorch never writes it in a field Trainscope reads).
#include <string>

#include "snapshot/SnapshotKeys.h"
#include "snapshot/SnapshotPickle.h"
#include "snapshot/SnapshotRecords.h"

namespace ts {
namespace {

using namespace snapshot_keys;

uint64_t faultKey(const PV& record) {
    return uint64_t(record.tag) << 32 | record.id;
}

// "blocks" + "[2].size" -> "blocks[2].size"; "segments[3]" + "blocks" ->
// "segments[3].blocks".
std::string joined(const std::string& outer, const std::string& inner) {
    if (inner.empty()) return outer;
    if (outer.empty() || inner.front() == '[') return outer + inner;
    return outer + "." + inner;
}

// What a record of that kind is: briefly, and as the reader recognises its
// dict.
struct RecordName {
    const char* brief;
    const char* recognised;
};

RecordName nameOf(PV::Tag tag) {
    switch (tag) {
    case PV::Tag::Frame:
        return {"a frame", "a frame (a dict with 'name' and 'filename')"};
    case PV::Tag::Event:
        return {"a trace entry", "a trace entry (a dict with 'action')"};
    case PV::Tag::Block:
        return {"a block", "a block (a dict with 'state')"};
    case PV::Tag::Segment:
        return {"a segment", "a segment (a dict with 'blocks' or 'total_size')"};
    case PV::Tag::List:
        return {"a list", "a list"};
    default:
        return {"a dict", "a dict"};
    }
}

} // namespace

SnapshotFault nestedFault(const std::string& outer, SnapshotFault inner) {
    inner.path = joined(outer, inner.path);
    return inner;
}

// `wanted`: the record a dict that is not one was expected to be, to say
// which key it lacks.
std::string SnapshotRecords::kindOf(const PV& v, PV::Tag wanted) const {
    switch (v.tag) {
    case PV::Tag::None:
        return "None";
    case PV::Tag::Int:
        return "an int";
    case PV::Tag::Real:
        return "a float";
    case PV::Tag::Str:
        return "a string";
    case PV::Tag::List:
    case PV::Tag::Stack:
        return "a list";
    case PV::Tag::Tuple:
        return "a tuple";
    case PV::Tag::Dict:
        break;
    default:
        return nameOf(v.tag).recognised;
    }
    const auto* items = itemsOf(v);
    if (!items) return "a dict";
    switch (wanted) {
    case PV::Tag::Frame:
        return !has(*items, kName) && !has(*items, kFilename)
                   ? "a dict without 'name' and 'filename'"
               : !has(*items, kName) ? "a dict without 'name'"
                                     : "a dict without 'filename'";
    case PV::Tag::Event:
        return "a dict without 'action'";
    case PV::Tag::Block:
        return "a dict without 'state'";
    case PV::Tag::Segment:
        return "a dict without 'blocks' or 'total_size'";
    default:
        return "a dict";
    }
}

void SnapshotRecords::wrongType(Fault& fault, uint32_t key, const PV& value,
                                const char* expected) const {
    if (!fault) fault = nestedFault(strings_[key], notA(expected, value));
}

// A `frames` value: a list of frames, which became a stack when its
// record took it unless something in it is not a frame.
void SnapshotRecords::checkFramesFully(Fault& fault, const PV& frames) const {
    if (fault) return;
    if (frames.tag == PV::Tag::Stack) {
        if (const SnapshotFault* f = faultOf(frames)) fault = nestedFault("frames", *f);
        return;
    }
    if (Fault f = listFault(frames, PV::Tag::Frame)) fault = nestedFault("frames", *f);
}

// segment_pool_id: a tuple of two ints (PyTorch's (pool, id) pair).
void SnapshotRecords::checkPoolId(Fault& fault, const PV& pool) const {
    if (fault) return;
    if (pool.tag != PV::Tag::Tuple)
        return wrongType(fault, kSegmentPoolId, pool, "a tuple of two ints");
    const size_t begin = tuple_end_[pool.id], size = tuple_end_[pool.id + 1] - begin;
    if (size != 2) {
        fault = SnapshotFault{"segment_pool_id", "is a tuple of " + std::to_string(size) +
                                                     " items, expected a tuple of two ints"};
        return;
    }
    for (size_t i = 0; i < 2 && !fault; ++i) {
        const PV& item = tuple_items_[begin + i];
        if (item.tag != PV::Tag::Int && item.tag != PV::Tag::Real)
            fault = nestedFault("segment_pool_id[" + std::to_string(i) + "]", notA("an int", item));
    }
}

// PyTorch 2.0's history: a list of dicts of addr, real_size and frames.
void SnapshotRecords::checkHistory(Fault& fault, const PV& history) const {
    if (fault) return;
    if (!isList(history)) return wrongType(fault, kHistory, history, "a list");
    size_t i = 0;
    forEachItem(history, [&](const PV& item) {
        const std::string where = "history[" + std::to_string(i++) + "]";
        const auto* items = itemsOf(item);
        if (!items) {
            fault = nestedFault(where, notA("a dict", item));
            return false;
        }
        Fault inner;
        for (const auto& [k, v] : *items) {
            if (k.tag != PV::Tag::Str) continue;
            if (k.id == kAddr || k.id == kRealSize) needNumber(inner, k.id, v);
            if (k.id == kFrames) checkFrames(inner, v);
        }
        if (inner) fault = nestedFault(where, *inner);
        return !fault;
    });
}

SnapshotRecords::Fault SnapshotRecords::listFault(const PV& list, PV::Tag item) const {
    if (!isList(list)) return notA("a list", list);
    if (list.tag == PV::Tag::List && faults_.empty()) {
        // The usual list: one run of the records it should hold.
        const ListSlot& l = lists_[list.id];
        if (l.ranged && (l.count == 0 || l.range_tag == item)) return {};
    }
    Fault fault;
    size_t i = 0;
    forEachItem(list, [&](const PV& v) {
        if (Fault f = itemFault(v, item)) fault = nestedFault("[" + std::to_string(i) + "]", *f);
        ++i;
        return !fault;
    });
    return fault;
}

SnapshotRecords::Fault SnapshotRecords::itemFault(const PV& item, PV::Tag wanted) const {
    if (wanted == PV::Tag::List ? !isList(item) : item.tag != wanted)
        return notA(nameOf(wanted).brief, item, wanted);
    if (const SnapshotFault* f = faultOf(item)) return *f;
    return {};
}

void SnapshotRecords::keepFault(Fault& fault, const PV& record) {
    if (fault) faults_.emplace(faultKey(record), std::move(*fault));
}

const SnapshotFault* SnapshotRecords::faultOf(const PV& record) const {
    if (faults_.empty()) return nullptr;
    const auto found = faults_.find(faultKey(record));
    return found == faults_.end() ? nullptr : &found->second;
}

void SnapshotRecords::refuse(const std::string& where, const SnapshotFault& fault) const {
    const std::string path = joined(where, fault.path);
    throw SnapshotPickleError((path.empty() ? "the snapshot" : path) + " " + fault.problem);
}

} // namespace ts
