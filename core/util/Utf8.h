#pragma once
// Whether bytes are UTF-8 text as JSON requires it (RFC 3629: no overlong
// forms, no surrogates, nothing past U+10FFFF): nlohmann's dump() throws on
// anything else, so text headed for JSON output is checked where it enters.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ts {

inline bool isUtf8(std::string_view text) {
    size_t i = 0;
    const size_t n = text.size();
    auto byte = [&](size_t at) { return static_cast<uint8_t>(text[at]); };
    auto continuation = [&](size_t at) { return at < n && (byte(at) & 0xC0) == 0x80; };
    while (i < n) {
        const uint8_t b = byte(i);
        if (b < 0x80) {
            ++i;
        } else if (b >= 0xC2 && b <= 0xDF) {
            if (!continuation(i + 1)) return false;
            i += 2;
        } else if (b >= 0xE0 && b <= 0xEF) {
            if (!continuation(i + 1) || !continuation(i + 2)) return false;
            const uint8_t b1 = byte(i + 1);
            if (b == 0xE0 && b1 < 0xA0) return false;  // overlong
            if (b == 0xED && b1 >= 0xA0) return false; // a surrogate
            i += 3;
        } else if (b >= 0xF0 && b <= 0xF4) {
            if (!continuation(i + 1) || !continuation(i + 2) || !continuation(i + 3)) return false;
            const uint8_t b1 = byte(i + 1);
            if (b == 0xF0 && b1 < 0x90) return false;  // overlong
            if (b == 0xF4 && b1 >= 0x90) return false; // past U+10FFFF
            i += 4;
        } else {
            return false; // a continuation byte first, 0xC0, 0xC1 or 0xF5..0xFF
        }
    }
    return true;
}

} // namespace ts
