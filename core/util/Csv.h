#pragma once
// CSV as RFC 4180 writes it: the one field quoter every CSV file Trainscope
// writes goes through, so operator names with commas (`aten::conv2d(a, b)`),
// quotes or line breaks read back as one field everywhere.
#include <string>
#include <string_view>
#include <vector>

namespace ts {

// `text` as one CSV field: unchanged unless it holds a comma, a double quote,
// CR or LF; then wrapped in double quotes with embedded quotes doubled.
std::string csvField(std::string_view text);

// The fields quoted as needed and joined by commas (no line break).
std::string csvLine(const std::vector<std::string>& fields);

} // namespace ts
