#pragma once
// printf-style formatting of one number into a std::string, for CSV cells and
// messages that need an exact format ("%.6g", "%.0f").
#include <cstdio>
#include <string>

namespace ts {

inline std::string numberText(const char* format, double value) {
    char text[64];
    std::snprintf(text, sizeof(text), format, value);
    return text;
}

} // namespace ts
