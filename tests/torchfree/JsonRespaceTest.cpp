// isRespacedArray lets the simdjson reader use an array's text as it is
// instead of re-spacing a copy: it may answer yes only where the copy would
// equal the text and the text is valid JSON, or the two readers would part.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "trace/JsonRespace.h"

namespace ts {
namespace {

std::string respaced(const std::string& raw) {
    std::string out;
    appendRespacedArray(out, raw);
    return out;
}

TEST(JsonRespace, KinetosArraysAreUsedAsTheyAre) {
    for (const char* raw :
         {"[]", "[[]]", "[[4, 3, 8, 8], [8, 3, 3, 3], [8], [], [], [], []]",
          R"(["float", "float", "", "Scalar"])", R"(["", "1", "[2, 2]", "False"])", "[-1, 0, 7]",
          "[true, false, null]", R"([["a", 1], [2, "b"]])", "[\"\xc3\xa9 caf\xc3\xa9\"]", // UTF-8
          "[123456789012345678]"}) {
        EXPECT_TRUE(isRespacedArray(raw)) << raw;
        EXPECT_EQ(respaced(raw), raw) << raw;
    }
}

TEST(JsonRespace, OtherSpacingNumbersAndEscapesAreCopied) {
    for (const char* raw : {"[1,2]", "[ 1]", "[1 ]", "[1,  2]", "[1, 2] ", " [1]", "[1,\n2]",
                            "[1.5]", "[1e3]", "[01]", "[-0]", "[1234567890123456789]",
                            R"(["a\"b"])", R"(["a\\b"])", "[{}]", R"([{"a": 1}])", "[\"\x01\"]"}) {
        EXPECT_FALSE(isRespacedArray(raw)) << raw;
    }
}

TEST(JsonRespace, InvalidJsonIsNeverTakenAsIs) {
    for (const char* raw :
         {"", "[", "]", "[1, ]", "[, 1]", R"(["a""b"])", "[1 2]", "[[1], [2]", "[1]]", "[1], [2]",
          "[tru]", "[truex]", "[nul]", "[-]", "[\"a]", "1", "\"a\"", "[1][2]", "[1, 2,]"}) {
        EXPECT_FALSE(isRespacedArray(raw)) << raw;
    }
}

// Random texts over the characters that matter: whenever the check says
// yes, nlohmann parses the text and the re-spaced copy is the text itself.
TEST(JsonRespace, AYesAlwaysMeansValidAndUnchanged) {
    std::mt19937 rng(14);
    const std::string alphabet = "[[]]\", ,01-9tfnrule\\.e";
    int yes = 0;
    for (int n = 0; n < 200000; ++n) {
        std::string raw = "[";
        const size_t length = rng() % 14;
        for (size_t i = 0; i < length; ++i)
            raw += alphabet[rng() % alphabet.size()];
        if (!isRespacedArray(raw)) continue;
        ++yes;
        ASSERT_FALSE(nlohmann::json::parse(raw, nullptr, false).is_discarded()) << raw;
        ASSERT_EQ(respaced(raw), raw) << raw;
    }
    EXPECT_GT(yes, 100); // the property was exercised
}

} // namespace
} // namespace ts
