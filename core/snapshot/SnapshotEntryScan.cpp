#include "snapshot/SnapshotEntryScan.h"

#include "pickle/PickleOpcodes.h"
#include "snapshot/SnapshotKeys.h"
#include "snapshot/SnapshotPickle.h"

namespace ts {
namespace {

uint32_t little32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// A memoized value as the machine's GET gives it, or false where the long
// way is needed: an open dict or list, a number kept aside, an unset memo.
bool memoValue(const MemoEntry& e, PV& v) {
    switch (e.tag) {
    case PV::Tag::Str:
    case PV::Tag::Tuple:
    case PV::Tag::Frame:
    case PV::Tag::Stack:
    case PV::Tag::Event:
    case PV::Tag::Block:
    case PV::Tag::Segment:
        v = {e.tag, e.id, 0};
        return true;
    default:
        return false;
    }
}

} // namespace

bool scanTraceEntry(const uint8_t* bytes, size_t n, const SnapshotRecords& records,
                    size_t memo_next, ScannedEntry& out) {
    using namespace pickle;
    // The longest opcode read here (LONG1 of 8 bytes) takes 10 bytes.
    constexpr ptrdiff_t kLongest = 10;
    const uint8_t* p = bytes;
    const uint8_t* const end = bytes + n;
    const SnapshotMemo& memo = records.memo();
    const size_t memo_size = memo.size();
    size_t m = 0; // keys and values so far, straight into out.items (no array to clear)
    bool marked = false;
    out.memoized = false;
    for (;;) {
        if (end - p < kLongest) return false;
        const uint8_t op = *p++;
        PV v;
        switch (op) {
        case FRAME:
            p += 8;
            continue;
        case MEMOIZE:
        case BINPUT:
        case LONG_BINPUT:
            if (marked || out.memoized) return false;
            out.memoized = true;
            out.memo_index = op == MEMOIZE ? memo_next : op == BINPUT ? *p : little32(p);
            p += op == MEMOIZE ? 0 : op == BINPUT ? 1 : 4;
            if (out.memo_index > memo_next + (size_t(1) << 26)) return false; // refused there
            continue;
        case MARK:
            if (marked) return false;
            marked = true;
            continue;
        case SETITEMS:
            if (!marked) return false;
            break;
        case BINGET:
        case LONG_BINGET: {
            const size_t index = op == BINGET ? *p : little32(p);
            p += op == BINGET ? 1 : 4;
            // Its own memo would be the open dict: the long way.
            if (index >= memo_size || (out.memoized && index == out.memo_index) ||
                !memoValue(memo.at(index), v))
                return false;
            break;
        }
        case BININT1:
            v = PV::integer(*p++);
            break;
        case BININT2:
            v = PV::integer(int64_t(p[0]) | int64_t(p[1]) << 8);
            p += 2;
            break;
        case BININT:
            v = PV::integer(int32_t(little32(p)));
            p += 4;
            break;
        case LONG1: {
            const size_t k = *p++;
            if (k > 8) return false;
            v = PV::integer(littleLong(p, k));
            p += k;
            break;
        }
        case NONE:
            break;
        case NEWTRUE:
        case NEWFALSE:
            v = PV::integer(op == NEWTRUE ? 1 : 0);
            break;
        default:
            return false;
        }
        if (op == SETITEMS) break;
        if (!marked || m == 2 * ScannedEntry::kMaxPairs) return false;
        auto& pair = out.items[m / 2];
        (m % 2 ? pair.second : pair.first) = v;
        ++m;
    }
    // setEventItems' conditions: pairs, one of them the action.
    if (m < 2 || m % 2) return false;
    bool action = false;
    out.count = m / 2;
    for (size_t k = 0; k < out.count; ++k) {
        const PV& key = out.items[k].first;
        action = action || (key.tag == PV::Tag::Str && key.id == snapshot_keys::kAction);
    }
    out.bytes = size_t(p - bytes);
    return action;
}

} // namespace ts
