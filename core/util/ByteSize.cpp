#include "util/ByteSize.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace ts {

std::optional<int64_t> parseByteSize(const std::string& text) {
    const char* begin = text.c_str();
    char* end = nullptr;
    const double number = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(number) || number < 0) return std::nullopt;
    std::string unit;
    for (const char* p = end; *p; ++p)
        if (!std::isspace(static_cast<unsigned char>(*p)))
            unit += char(std::tolower(static_cast<unsigned char>(*p)));
    double scale = 1;
    const std::string prefixes = "kmgt";
    if (!unit.empty() && prefixes.find(unit[0]) != std::string::npos) {
        scale = std::pow(1024.0, double(prefixes.find(unit[0]) + 1));
        unit.erase(0, 1);
        if (unit == "i" || unit == "ib" || unit == "b") unit.clear();
    } else if (unit == "b" || unit == "bytes") {
        unit.clear();
    }
    if (!unit.empty()) return std::nullopt;
    const double bytes = number * scale;
    if (bytes > 9.0e18) return std::nullopt;
    return int64_t(std::llround(bytes));
}

} // namespace ts
