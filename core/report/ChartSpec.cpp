#include "report/ChartSpec.h"

#include <cmath>
#include <cstdio>

namespace ts::chart {

Color paletteColor(size_t i) {
    static const Color kPalette[] = {
        {31, 119, 180}, {255, 127, 14},  {44, 160, 44},   {214, 39, 40},  {148, 103, 189},
        {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
    return kPalette[i % (sizeof(kPalette) / sizeof(kPalette[0]))];
}

std::string formatCompact(double v) {
    if (std::isnan(v)) return "-";
    const double a = std::abs(v);
    char text[32];
    const char* suffix = "";
    double scaled = v;
    if (a >= 1e9)
        scaled = v / 1e9, suffix = "G";
    else if (a >= 1e6)
        scaled = v / 1e6, suffix = "M";
    else if (a >= 1e4)
        scaled = v / 1e3, suffix = "k";
    const double s = std::abs(scaled);
    const char* format = s == 0      ? "%.0f"
                         : s >= 100  ? "%.0f"
                         : s >= 10   ? "%.1f"
                         : s >= 1    ? "%.2f"
                         : s >= 0.01 ? "%.3f"
                                     : "%.1e";
    std::snprintf(text, sizeof(text), format, scaled);
    std::string out = text;
    // Trim trailing zeros of fixed-point forms ("12.50" -> "12.5", "3.00" -> "3").
    if (out.find('.') != std::string::npos && out.find('e') == std::string::npos) {
        out.erase(out.find_last_not_of('0') + 1);
        if (out.back() == '.') out.pop_back();
    }
    return out + suffix;
}

} // namespace ts::chart
