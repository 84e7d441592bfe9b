#include "snapshot/SnapshotPickle.h"

#include <cstring>
#include <deque>
#include <string_view>
#include <unordered_map>

#include <algorithm>
#include <memory>

#include "pickle/PickleOpcodes.h"
#include "snapshot/SnapshotEntryScan.h"
#include "snapshot/SnapshotRecords.h"

namespace ts {

void PickleSource::topUp(size_t want) {
    if (buffer_.size() < (size_t(1) << 20)) buffer_.resize(size_t(1) << 20);
    consumed_ += at_;
    std::memmove(buffer_.data(), buffer_.data() + at_, end_ - at_);
    end_ -= at_;
    at_ = 0;
    while (end_ < want && !ended_) {
        const size_t n = fill(buffer_.data() + end_, buffer_.size() - end_);
        ended_ = n == 0;
        end_ += n;
    }
}

void PickleSource::refill(size_t need) {
    topUp(need);
    if (end_ - at_ < need)
        throw SnapshotPickleError("the file ends at byte " + std::to_string(position() + end_) +
                                  " inside the pickle: it is truncated (an interrupted "
                                  "copy or dump?)");
}

void PickleSource::readAcross(void* dst, size_t n) {
    auto* out = static_cast<uint8_t*>(dst);
    while (n > 0) {
        if (at_ == end_) refill(1);
        const size_t take = std::min(n, end_ - at_);
        std::memcpy(out, buffer_.data() + at_, take);
        at_ += take, out += take, n -= take;
    }
}

void PickleSource::skipAcross(size_t n) {
    while (n > 0) {
        if (at_ == end_) refill(1);
        const size_t take = std::min(n, end_ - at_);
        at_ += take, n -= take;
    }
}

namespace {

using namespace pickle; // the opcodes

// The opcodes that build objects by calling something: refused.
const char* callingOpcode(uint8_t op) {
    switch (op) {
    case 'c':
        return "GLOBAL";
    case 0x93:
        return "STACK_GLOBAL";
    case 'R':
        return "REDUCE";
    case 'b':
        return "BUILD";
    case 'i':
        return "INST";
    case 'o':
        return "OBJ";
    case 0x81:
        return "NEWOBJ";
    case 0x92:
        return "NEWOBJ_EX";
    case 'P':
    case 'Q':
        return "PERSID";
    case 0x82:
    case 0x83:
    case 0x84:
        return "EXT";
    default:
        return nullptr;
    }
}

// The machine's stack: a vector whose push is always inlined (std::vector's
// was a call, a fifth of the read: every opcode pushes).
class ValueStack {
public:
    void reserve(size_t n) { grow(n); }
    void push_back(const PV& v) {
        if (size_ == cap_) grow(cap_ * 2 + 16);
        data_[size_++] = v;
    }
    void pop_back() { --size_; }
    PV& back() { return data_[size_ - 1]; }
    PV& operator[](size_t i) { return data_[i]; }
    PV* data() { return data_.get(); }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    void resize(size_t n) { size_ = n; } // only ever shrinks
    // Removes [from, size - 1): the items a tuple took, below it.
    void eraseBelowTop(size_t from) {
        data_[from] = data_[size_ - 1];
        size_ = from + 1;
    }

private:
    void grow(size_t n) {
        if (n <= cap_) return;
        std::unique_ptr<PV[]> more(new PV[n]);
        std::copy(data_.get(), data_.get() + size_, more.get());
        data_ = std::move(more);
        cap_ = n;
    }
    std::unique_ptr<PV[]> data_;
    size_t size_ = 0, cap_ = 0;
};

class Machine {
public:
    explicit Machine(PickleSource& in) : in_(in) {
        records_.expect(in.size());
        stack_.reserve(4096);
    }

    MemorySnapshot run() {
        for (;;) {
            const size_t at = in_.position();
            const uint8_t op = in_.byte();
            if (op == STOP) break;
            try {
                step(op, at);
            } catch (const SnapshotPickleError& e) {
                // The records' errors do not know where they are.
                const std::string what = e.what();
                if (what.find("byte ") != std::string::npos) throw;
                throw SnapshotPickleError(what + " (opcode at byte " + std::to_string(at) + ")");
            }
        }
        if (stack_.size() != 1 || !marks_.empty()) fail("the pickle ends with a broken stack");
        return records_.finish(stack_.back());
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw SnapshotPickleError(what + " (byte " + std::to_string(in_.position()) + ")");
    }
    PV pop() {
        if (stack_.empty() || (!marks_.empty() && stack_.size() == marks_.back()))
            fail("the pickle takes more from its stack than it put there");
        PV v = stack_.back();
        stack_.pop_back();
        return v;
    }
    size_t popMark() {
        if (marks_.empty()) fail("the pickle closes a MARK it never opened");
        const size_t m = marks_.back();
        marks_.pop_back();
        if (m > stack_.size()) fail("the pickle's stack fell below a MARK");
        return m;
    }
    // The stack above the last MARK: a MARK begins a stack of its own, as
    // CPython's unpickler keeps it, which an opcode may not reach below.
    size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
    // Where the top `n` items begin; they must lie above the last MARK.
    size_t topItems(size_t n, const char* what) const {
        if (stack_.size() < floor() + n) fail(what);
        return stack_.size() - n;
    }
    void memoize(size_t index) {
        if (stack_.empty()) fail("the pickle memoizes an empty stack");
        if (index > memo_count_ + (size_t(1) << 26)) fail("a memo index out of all proportion");
        records_.memoize(index, stack_.back());
        memo_count_ = std::max(memo_count_, index + 1);
    }
    void get(size_t index) {
        try {
            stack_.push_back(records_.get(index));
        } catch (const SnapshotPickleError& e) {
            fail(e.what());
        }
    }
    void text(size_t n) {
        if (n > in_.size()) fail("a string longer than the file");
        std::string s(n, '\0');
        in_.read(s.data(), n);
        stack_.push_back(records_.intern(std::move(s)));
    }
    void integer(size_t n) {
        if (n > 9) {
            // Nothing in a snapshot needs this; skip it as an unknown number.
            if (n > in_.size()) fail("an integer longer than the file");
            in_.skip(n);
            stack_.push_back(PV::integer(0));
            return;
        }
        uint8_t b[9] = {};
        in_.read(b, n);
        // A 9th byte is the sign of a value >= 2^63 (pytorch/pytorch#115234):
        // kept as its 64 bits.
        stack_.push_back(PV::integer(littleLong(b, std::min<size_t>(n, 8))));
    }
    template <typename T> T little() {
        uint8_t b[sizeof(T)];
        in_.read(b, sizeof(T));
        uint64_t u = 0;
        for (size_t i = 0; i < sizeof(T); ++i)
            u |= uint64_t(b[i]) << (8 * i);
        return T(u);
    }
    void appendItems(size_t from) {
        if (from <= floor()) fail("APPENDS without a list");
        PV& list = stack_[from - 1];
        records_.append(list, stack_.data() + from, stack_.size() - from);
        stack_.resize(from);
    }
    void setItems(size_t from) {
        if (from <= floor() || (stack_.size() - from) % 2)
            fail("SETITEMS without a dict or with an odd count");
        records_.setItems(stack_[from - 1], stack_.data() + from, stack_.size() - from);
        stack_.resize(from);
    }
    void tuple(size_t from) {
        stack_.push_back(records_.tuple(stack_.data() + from, stack_.size() - from));
        stack_.eraseBelowTop(from);
    }
    // The fast path (SnapshotEntryScan.h): a trace entry read whole, its
    // record on the stack where the long way leaves the dict it became.
    bool traceEntry() {
        constexpr size_t kWindow = 512; // an entry's 16 pairs at most, and FRAMEs
        const auto [bytes, n] = in_.peek(kWindow);
        if (!scanTraceEntry(bytes, n, records_, memo_count_, entry_)) return false;
        in_.skip(entry_.bytes);
        const PV made = records_.makeEvent(entry_.items.data(), entry_.count);
        stack_.push_back(made);
        if (entry_.memoized) memoize(entry_.memo_index);
        return true;
    }
    void step(uint8_t op, size_t at);

    PickleSource& in_;
    SnapshotRecords records_;
    ValueStack stack_;
    std::vector<size_t> marks_;
    size_t memo_count_ = 0;
    ScannedEntry entry_;
};

void Machine::step(uint8_t op, size_t at) {
    switch (op) {
    case PROTO: {
        const int p = in_.byte();
        if (p < 2 || p > 5) fail("pickle protocol " + std::to_string(p) + "; snapshots use 2 to 5");
        records_.setProtocol(p);
        return;
    }
    case FRAME:
        in_.skip(8);
        return;
    case MARK:
        marks_.push_back(stack_.size());
        return;
    case POP:
        pop();
        return;
    case POP_MARK:
        stack_.resize(popMark());
        return;
    case NONE:
        stack_.push_back(PV{});
        return;
    case NEWTRUE:
    case NEWFALSE:
        stack_.push_back(PV::integer(op == NEWTRUE ? 1 : 0));
        return;
    case BININT1:
        stack_.push_back(PV::integer(in_.byte()));
        return;
    case BININT2:
        stack_.push_back(PV::integer(little<uint16_t>()));
        return;
    case BININT:
        stack_.push_back(PV::integer(int32_t(little<uint32_t>())));
        return;
    case LONG1:
        integer(in_.byte());
        return;
    case LONG4:
        integer(little<uint32_t>());
        return;
    case BINFLOAT: {
        uint8_t b[8];
        in_.read(b, 8);
        uint64_t u = 0;
        for (uint8_t c : b)
            u = (u << 8) | c; // big-endian
        double d;
        std::memcpy(&d, &u, 8);
        stack_.push_back(PV::real(d));
        return;
    }
    case SHORT_BINUNICODE:
    case SHORT_BINBYTES:
        text(in_.byte());
        return;
    case BINUNICODE:
    case BINBYTES:
        text(little<uint32_t>());
        return;
    case BINUNICODE8:
    case BINBYTES8:
        text(size_t(little<uint64_t>()));
        return;
    case EMPTY_LIST:
        stack_.push_back(records_.newList());
        return;
    case EMPTY_DICT:
        if (!traceEntry()) stack_.push_back(records_.newDict());
        return;
    case EMPTY_TUPLE:
        stack_.push_back(records_.tuple(nullptr, 0));
        return;
    case LIST: {
        const size_t m = popMark();
        PV list = records_.newList();
        records_.append(list, stack_.data() + m, stack_.size() - m);
        stack_.resize(m);
        stack_.push_back(list);
        return;
    }
    case DICT: {
        const size_t m = popMark();
        if ((stack_.size() - m) % 2) fail("DICT with an odd count");
        PV dict = records_.newDict();
        records_.setItems(dict, stack_.data() + m, stack_.size() - m);
        stack_.resize(m);
        stack_.push_back(dict);
        return;
    }
    case TUPLE:
        tuple(popMark());
        return;
    case TUPLE1:
    case TUPLE2:
    case TUPLE3: {
        tuple(topItems(size_t(op - TUPLE1 + 1), "a tuple of missing items"));
        return;
    }
    case APPEND:
        appendItems(topItems(2, "APPEND without a list") + 1);
        return;
    case APPENDS:
        appendItems(popMark());
        return;
    case SETITEM:
        setItems(topItems(3, "SETITEM without a dict") + 1);
        return;
    case SETITEMS:
        setItems(popMark());
        return;
    case BINPUT:
        memoize(in_.byte());
        return;
    case LONG_BINPUT:
        memoize(little<uint32_t>());
        return;
    case MEMOIZE:
        memoize(memo_count_);
        return;
    case BINGET:
        get(in_.byte());
        return;
    case LONG_BINGET:
        get(little<uint32_t>());
        return;
    default:
        break;
    }
    if (const char* calling = callingOpcode(op))
        throw SnapshotPickleError(
            std::string("the pickle asks to run code (") + calling + " at byte " +
            std::to_string(at) +
            "): a memory snapshot holds only dicts, lists, numbers and strings, and Trainscope "
            "never runs anything from a pickle");
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", op);
    throw SnapshotPickleError(
        std::string("opcode ") + hex + " at byte " + std::to_string(at) +
        " is not one a snapshot pickle uses (protocols 2 to 5 of plain data)");
}

} // namespace

MemorySnapshot readSnapshotPickle(PickleSource& source) {
    Machine machine(source);
    return machine.run();
}

} // namespace ts
