#pragma once
// The pickle machine of snapshot files (internal to core/snapshot): the
// opcodes of protocols 2-5 that plain data uses, over a buffered source, with
// each dict turned into its record when its parent takes it
// (SnapshotReader.h says why).
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "snapshot/MemorySnapshot.h"

namespace ts {

// What is wrong and at which byte (SnapshotReader adds the file).
class SnapshotPickleError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// LONG1's `n` <= 8 little-endian bytes, two's complement.
inline int64_t littleLong(const uint8_t* b, size_t n) {
    uint64_t u = 0;
    for (size_t i = 0; i < n; ++i)
        u |= uint64_t(b[i]) << (8 * i);
    // Sign-extend short negatives.
    if (n > 0 && n < 8 && (b[n - 1] & 0x80)) u |= ~uint64_t(0) << (8 * n);
    return int64_t(u);
}

// Bytes in order, from a file or memory, read in blocks. The reads are
// inline while the buffer holds what they ask (nearly always).
class PickleSource {
public:
    virtual ~PickleSource() = default;
    virtual size_t size() const = 0;
    uint8_t byte() {
        if (at_ == end_) refill(1);
        return buffer_[at_++];
    }
    void read(void* dst, size_t n) {
        if (end_ - at_ < n) return readAcross(dst, n);
        std::memcpy(dst, buffer_.data() + at_, n);
        at_ += n;
    }
    void skip(size_t n) {
        if (end_ - at_ < n) return skipAcross(n);
        at_ += n;
    }
    // The next `want` bytes, or fewer at the end of the file, together in
    // the buffer; they stay unread until skip().
    std::pair<const uint8_t*, size_t> peek(size_t want) {
        if (end_ - at_ < want && !ended_) topUp(want);
        return {buffer_.data() + at_, end_ - at_};
    }
    size_t position() const { return consumed_ + at_; }

protected:
    // Up to `max` bytes into `dst`; 0 at the end.
    virtual size_t fill(uint8_t* dst, size_t max) = 0;
    std::vector<uint8_t> buffer_;

private:
    void refill(size_t need);
    void topUp(size_t want); // reads until `want` bytes are buffered or the file ends
    void readAcross(void* dst, size_t n);
    void skipAcross(size_t n);
    size_t at_ = 0, end_ = 0, consumed_ = 0;
    bool ended_ = false; // fill() gave 0
};

MemorySnapshot readSnapshotPickle(PickleSource& source);

} // namespace ts
