// util/Csv.h: the one CSV field quoter (RFC 4180).
#include <gtest/gtest.h>

#include "util/Csv.h"

namespace ts {
namespace {

TEST(Csv, PlainFieldsStayAsTheyAre) {
    EXPECT_EQ(csvField("aten::conv2d"), "aten::conv2d");
    EXPECT_EQ(csvField(""), "");
    EXPECT_EQ(csvField("3x32x32"), "3x32x32");
}

TEST(Csv, CommasQuotesAndLineBreaksAreQuoted) {
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(csvField("cr\rhere"), "\"cr\rhere\"");
    EXPECT_EQ(csvField("\""), "\"\"\"\"");
}

TEST(Csv, LineJoinsQuotedFields) {
    EXPECT_EQ(csvLine({}), "");
    EXPECT_EQ(csvLine({"x"}), "x");
    EXPECT_EQ(csvLine({"aten::add", "1,2", "", "q\"q"}), "aten::add,\"1,2\",,\"q\"\"q\"");
}

// Parses one CSV record as RFC 4180 readers do, to check the round trip.
std::vector<std::string> parseRecord(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

TEST(Csv, EveryFieldReadsBackWhole) {
    const std::vector<std::string> fields = {
        "aten::conv2d(a, b)", "\"", "\"\"", ",", "a\nb", "x\r\ny", "plain", "", " spaced "};
    EXPECT_EQ(parseRecord(csvLine(fields)), fields);
}

} // namespace
} // namespace ts
