#pragma once
// The numbers, flags, counts and texts of Trainscope's binary cache files
// (the Overview cache, the rank summaries): written as little-endian memory
// bytes, read back with every count checked against the bytes left, so that
// a corrupt file throws Malformed and never allocates or reads past its end.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "util/Hash64.h"
#include "util/Utf8.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "cache files store numbers as little-endian memory bytes");

namespace ts::cache_bytes {

// The checksum of a file's header: its bytes up to its `header_checksum`
// member, seeded per kind of file.
template <typename Header> uint64_t headerChecksum(const Header& header, uint64_t seed) {
    Hash64 h(seed);
    h.add(&header, offsetof(Header, header_checksum));
    return h.digest();
}

// The checksum of a file's body, whatever the kind of file.
inline uint64_t bodyChecksum(std::string_view body) {
    Hash64 h(0x626f6479);
    h.add(body);
    return h.digest();
}

class Sink {
public:
    template <typename T> void put(T value) {
        static_assert(std::is_arithmetic_v<T>);
        bytes_.append(reinterpret_cast<const char*>(&value), sizeof value);
    }
    void flag(bool value) { put(uint8_t(value ? 1 : 0)); }
    void count(size_t n) { put(uint64_t(n)); }
    void text(const std::string& s) {
        count(s.size());
        bytes_ += s;
    }
    void optional(const std::optional<double>& value) {
        flag(value.has_value());
        put(value.value_or(0.0));
    }
    std::string& bytes() { return bytes_; }

private:
    std::string bytes_;
};

// A malformed body: the reason, caught by the file's reader.
struct Malformed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Source {
public:
    explicit Source(std::string_view bytes) : bytes_(bytes) {}

    template <typename T> T get() {
        static_assert(std::is_arithmetic_v<T>);
        need(sizeof(T), "a number");
        T value;
        std::memcpy(&value, bytes_.data() + at_, sizeof value);
        at_ += sizeof value;
        return value;
    }
    bool flag() {
        const uint8_t b = get<uint8_t>();
        if (b > 1) throw Malformed("a flag is neither 0 nor 1");
        return b == 1;
    }
    // A count of items of at least `item_bytes` each: never more than the
    // bytes left could hold, so a corrupt count allocates nothing.
    size_t count(size_t item_bytes, const char* what) {
        const uint64_t n = get<uint64_t>();
        if (n > (bytes_.size() - at_) / item_bytes)
            throw Malformed(std::string("the count of ") + what + " exceeds the file");
        return size_t(n);
    }
    // UTF-8, as the trace's JSON and our own texts are: the views' JSON
    // output could not hold anything else.
    std::string text() {
        const size_t n = count(1, "a text's bytes");
        std::string s(bytes_.substr(at_, n));
        at_ += n;
        if (!isUtf8(s)) throw Malformed("a text is not UTF-8");
        return s;
    }
    std::optional<double> optional() {
        const bool present = flag();
        const double value = get<double>();
        return present ? std::optional<double>(value) : std::nullopt;
    }
    bool atEnd() const { return at_ == bytes_.size(); }

private:
    void need(size_t n, const char* what) const {
        if (bytes_.size() - at_ < n) throw Malformed(std::string("the body ends inside ") + what);
    }

    std::string_view bytes_;
    size_t at_ = 0;
};

} // namespace ts::cache_bytes
