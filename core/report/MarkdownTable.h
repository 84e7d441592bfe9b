#pragma once
// Tables for reports: GitHub-flavoured Markdown (report.md) and aligned plain
// text (terminal), plus the cell formats every report shares so figures read
// the same everywhere.
#include <cstdint>
#include <string>
#include <vector>

namespace ts {

using TableRows = std::vector<std::vector<std::string>>;

// Pipe table; '|' and newlines inside cells are escaped. Columns whose header
// is listed in `right_aligned` are right-aligned (numbers).
std::string markdownTable(const std::vector<std::string>& headers, const TableRows& rows,
                          const std::vector<std::string>& right_aligned = {});
// Space-aligned columns under a header and a dashed rule; numbers (cells that
// start with a digit, sign or '.') are right-aligned.
std::string plainTable(const std::vector<std::string>& headers, const TableRows& rows);

// "12.3" with `digits` decimals; "-" for NaN.
std::string fixed(double value, int digits = 1);
// Bytes as MiB with one decimal ("512.0"); "-" for values <= 0.
std::string mib(int64_t bytes);
// 0..1 as a percentage ("93.4%"); "-" for NaN.
std::string percent(double fraction, int digits = 1);
// Ratio as a speed-up ("1.23x"); "-" for NaN or non-positive.
std::string speedup(double ratio);

} // namespace ts
