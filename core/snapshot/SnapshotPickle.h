#pragma once
// The pickle machine of snapshot files (internal to core/snapshot): the
// opcodes of protocols 2-5 that plain data uses, over a buffered source, with
// each dict turned into its record when its parent takes it
// (SnapshotReader.h says why).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "snapshot/MemorySnapshot.h"

namespace ts {

// What is wrong and at which byte (SnapshotReader adds the file).
class SnapshotPickleError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Bytes in order, from a file or memory, read in blocks.
class PickleSource {
public:
    virtual ~PickleSource() = default;
    virtual size_t size() const = 0;
    uint8_t byte() {
        if (at_ == end_) refill(1);
        return buffer_[at_++];
    }
    void read(void* dst, size_t n);
    void skip(size_t n);
    size_t position() const { return consumed_ + at_; }

protected:
    // Up to `max` bytes into `dst`; 0 at the end.
    virtual size_t fill(uint8_t* dst, size_t max) = 0;
    std::vector<uint8_t> buffer_;

private:
    void refill(size_t need);
    size_t at_ = 0, end_ = 0, consumed_ = 0;
};

MemorySnapshot readSnapshotPickle(PickleSource& source);

} // namespace ts
