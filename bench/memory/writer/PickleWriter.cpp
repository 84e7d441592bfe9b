#include "PickleWriter.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace ts::snapgen {
namespace {
constexpr size_t kFrameTarget = 64 * 1024; // pickle's _FRAME_SIZE_TARGET
constexpr size_t kFrameHeader = 9;         // FRAME and its 8-byte length
constexpr size_t kFlushAt = size_t(4) << 20;
} // namespace

PickleWriter::PickleWriter(std::FILE* out, int protocol) : out_(out), protocol_(protocol) {
    buffer_.resize(kFlushAt + (size_t(1) << 20));
    at_ = buffer_.data();
}

PickleWriter::~PickleWriter() = default;

void PickleWriter::grow(size_t n) {
    const size_t used = size_t(at_ - buffer_.data());
    buffer_.resize(std::max(buffer_.size() * 2, used + n));
    at_ = buffer_.data() + used;
}

void PickleWriter::flush() {
    const size_t n = size_t(at_ - buffer_.data());
    if (out_ && n && std::fwrite(buffer_.data(), 1, n, out_) != n)
        throw std::runtime_error(std::string("cannot write the snapshot: ") + std::strerror(errno));
    flushed_ += n;
    at_ = buffer_.data();
}

void PickleWriter::begin() {
    op(0x80);
    op(uint8_t(protocol_));
    if (protocol_ >= 4) {
        frame_start_ = size_t(at_ - buffer_.data());
        room(kFrameHeader);
        at_ += kFrameHeader;
    }
}

void PickleWriter::end() {
    op(0x2e); // STOP
    if (protocol_ >= 4) commitFrame(true);
    flush();
}

// The header was kept free at the frame's start; its length goes in now.
void PickleWriter::commitFrame(bool last) {
    uint8_t* header = buffer_.data() + frame_start_;
    const uint64_t length = uint64_t(at_ - header) - kFrameHeader;
    header[0] = 0x95; // FRAME
    for (int i = 0; i < 8; ++i)
        header[1 + i] = uint8_t(length >> (8 * i));
    if (size_t(at_ - buffer_.data()) >= kFlushAt) flush();
    if (last) return;
    frame_start_ = size_t(at_ - buffer_.data());
    room(kFrameHeader);
    at_ += kFrameHeader;
}

void PickleWriter::save() {
    if (frame_start_ != SIZE_MAX) {
        if (size_t(at_ - buffer_.data()) - frame_start_ - kFrameHeader >= kFrameTarget)
            commitFrame(false);
    } else if (size_t(at_ - buffer_.data()) >= kFlushAt) {
        flush();
    }
}

void PickleWriter::integer(int64_t v) {
    save();
    room(10);
    if (v >= 0 && v <= 0xff) {
        *at_++ = 0x4b, *at_++ = uint8_t(v); // BININT1
    } else if (v >= 0 && v <= 0xffff) {
        *at_++ = 0x4d; // BININT2
        little(uint64_t(v), 2);
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
        *at_++ = 0x4a; // BININT
        little(uint64_t(v), 4);
    } else {
        // LONG1: the shortest two's complement (encode_long): bit_length / 8 + 1
        // bytes, less a redundant 0xff of a negative value.
        const uint64_t magnitude = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
        int n = (64 - __builtin_clzll(magnitude)) / 8 + 1;
        if (n > 8) n = 8;
        if (v < 0 && n > 1 && uint8_t(uint64_t(v) >> (8 * (n - 1))) == 0xff &&
            (uint8_t(uint64_t(v) >> (8 * (n - 2))) & 0x80))
            --n;
        *at_++ = 0x8a, *at_++ = uint8_t(n);
        little(uint64_t(v), n);
    }
}

void PickleWriter::boolean(bool v) {
    save();
    op(v ? 0x88 : 0x89);
}

void PickleWriter::real(double v) {
    save();
    room(9);
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    *at_++ = 0x47; // BINFLOAT, big-endian
    for (int i = 7; i >= 0; --i)
        *at_++ = uint8_t(bits >> (8 * i));
}

void PickleWriter::text(std::string_view s) {
    save();
    room(s.size() + 9);
    if (protocol_ >= 4 && s.size() < 256) {
        *at_++ = 0x8c, *at_++ = uint8_t(s.size()); // SHORT_BINUNICODE
    } else {
        *at_++ = 0x58; // BINUNICODE
        little(s.size(), 4);
    }
    std::memcpy(at_, s.data(), s.size());
    at_ += s.size();
}

void PickleWriter::emptyDict() {
    save();
    op(0x7d);
}

void PickleWriter::emptyList() {
    save();
    op(0x5d);
}

uint64_t PickleWriter::memoize() {
    const uint64_t index = memo_count_++;
    room(5);
    if (protocol_ >= 4) {
        *at_++ = 0x94; // MEMOIZE
    } else if (index < 256) {
        *at_++ = 0x71, *at_++ = uint8_t(index); // BINPUT
    } else {
        *at_++ = 0x72; // LONG_BINPUT
        little(index, 4);
    }
    return index;
}

void PickleWriter::get(uint64_t index) {
    save();
    room(5);
    if (index < 256) {
        *at_++ = 0x68, *at_++ = uint8_t(index); // BINGET
    } else {
        *at_++ = 0x6a; // LONG_BINGET
        little(index, 4);
    }
}

} // namespace ts::snapgen
