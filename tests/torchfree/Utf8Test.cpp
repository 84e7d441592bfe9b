// util/Utf8.h against the rules JSON output enforces: nlohmann's dump()
// throws on exactly the strings isUtf8 refuses, for hand-picked edge cases
// and for random byte strings biased towards multi-byte sequences.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "util/Utf8.h"

namespace ts {
namespace {

bool nlohmannAccepts(const std::string& text) {
    try {
        (void)nlohmann::json(text).dump();
        return true;
    } catch (const nlohmann::json::type_error&) {
        return false;
    }
}

TEST(Utf8, EdgeCases) {
    EXPECT_TRUE(isUtf8(""));
    EXPECT_TRUE(isUtf8("ProfilerStep#12"));
    EXPECT_TRUE(isUtf8("\xC3\xA9"));          // é
    EXPECT_TRUE(isUtf8("\xE2\x82\xAC"));      // €
    EXPECT_TRUE(isUtf8("\xF0\x9F\x98\x80"));  // an emoji
    EXPECT_TRUE(isUtf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF
    EXPECT_FALSE(isUtf8("\xDF"));             // cut short
    EXPECT_FALSE(isUtf8("\xE2\x82"));         // cut short
    EXPECT_FALSE(isUtf8("\x80"));             // a continuation first
    EXPECT_FALSE(isUtf8("\xC0\x80"));         // overlong NUL
    EXPECT_FALSE(isUtf8("\xE0\x80\x80"));     // overlong
    EXPECT_FALSE(isUtf8("\xF0\x80\x80\x80")); // overlong
    EXPECT_FALSE(isUtf8("\xED\xA0\x80"));     // a surrogate
    EXPECT_FALSE(isUtf8("\xF4\x90\x80\x80")); // past U+10FFFF
    EXPECT_FALSE(isUtf8("\xFF"));
    EXPECT_FALSE(isUtf8(std::string("a\xC3", 2))); // cut at the end
}

TEST(Utf8, AgreesWithNlohmannOnRandomBytes) {
    std::mt19937 rng(7);
    // Bytes from the ranges where the rules differ: ASCII, continuations,
    // lead bytes of every length, and the invalid leads.
    const uint8_t pool[] = {'a',  0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
                            0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};
    int valid = 0;
    for (int i = 0; i < 50000; ++i) {
        std::string text(size_t(rng() % 6), '\0');
        for (char& c : text)
            c = char(pool[rng() % sizeof pool]);
        ASSERT_EQ(isUtf8(text), nlohmannAccepts(text)) << i;
        valid += isUtf8(text) ? 1 : 0;
    }
    EXPECT_GT(valid, 1000); // the valid side was reached, not only refusals
}

} // namespace
} // namespace ts
