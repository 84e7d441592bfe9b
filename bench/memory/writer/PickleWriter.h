#pragma once
// Writes a pickle as CPython's C pickler (Modules/_pickle.c) writes plain
// data, streamed to a file: the same opcode for each value (BININT1/2,
// BININT, LONG1; BINUNICODE, or SHORT_BINUNICODE from protocol 4), memo
// entries as BINPUT/LONG_BINPUT (protocol 2) or MEMOIZE (4, 5), and from
// protocol 4 the 64 KiB frames, committed where the pickler commits them:
// at the start of the first value saved once the frame holds 64 KiB. What
// is memoized and when is the caller's (SnapshotLayout): pickle memoizes by
// object, and only the caller knows which values are the same object.
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <vector>

namespace ts::snapgen {

class PickleWriter {
public:
    // `out` may be null: the bytes are only counted (a size estimate).
    PickleWriter(std::FILE* out, int protocol);
    ~PickleWriter();
    void begin(); // PROTO (and the first frame)
    void end();   // STOP, the last frame, and the flush
    uint64_t bytesWritten() const { return flushed_ + uint64_t(at_ - buffer_.data()); }

    // Values: each is one save() of the C pickler (a frame may end first).
    void integer(int64_t v);
    void boolean(bool v);
    void real(double v);
    void text(std::string_view s); // not memoized: call memoize() after it
    void emptyDict();
    void emptyList();
    void get(uint64_t memo_index);
    // Structure: written inside the current save.
    uint64_t memoize(); // the value just written gets the next memo index
    void mark() { op(0x28); }
    void appends() { op(0x65); }
    void append() { op(0x61); }
    void setItems() { op(0x75); }
    void setItem() { op(0x73); }
    void tuple2() { op(0x86); }

private:
    void save(); // a value begins: commit the frame if it is full
    void op(uint8_t code) {
        room(1);
        *at_++ = code;
    }
    void little(uint64_t v, int bytes) {
        for (int i = 0; i < bytes; ++i)
            *at_++ = uint8_t(v >> (8 * i));
    }
    void room(size_t n) {
        if (size_t(buffer_.data() + buffer_.size() - at_) < n) grow(n);
    }
    void grow(size_t n);
    void commitFrame(bool last);
    void flush();

    std::FILE* out_;
    int protocol_;
    std::vector<uint8_t> buffer_;
    uint8_t* at_;
    size_t frame_start_ = SIZE_MAX; // the frame header's offset in buffer_
    uint64_t flushed_ = 0;
    uint64_t memo_count_ = 0;
};

// Python's batched appends and setitems for a list or dict of `total` items
// known beforehand (batch_list_exact, batch_dict_exact): one item is
// `item APPEND` (`key value SETITEM`); more are MARK ... APPENDS (SETITEMS)
// per 1000. Call before() ahead of each item (a dict's key) and after() once
// it (its value) is written.
class ItemBatches {
public:
    ItemBatches(PickleWriter& w, uint64_t total, bool dict) : w_(w), total_(total), dict_(dict) {}
    void before() {
        if (total_ > 1 && done_ % kBatch == 0) w_.mark();
    }
    void after() {
        ++done_;
        if (total_ == 1)
            dict_ ? w_.setItem() : w_.append();
        else if (done_ % kBatch == 0 || done_ == total_)
            dict_ ? w_.setItems() : w_.appends();
    }

private:
    static constexpr uint64_t kBatch = 1000;
    PickleWriter& w_;
    uint64_t total_, done_ = 0;
    bool dict_;
};

} // namespace ts::snapgen
