#pragma once
// Human-readable numbers for tables, charts and tooltips (one place, so every
// view writes "12.3 ms", "1.2 GiB" the same way).
#include <cstdint>

#include <QString>

namespace ts::gui::format {

QString duration(double ms);    // "850 µs", "12.3 ms", "4.56 s", "2 min 05 s"
QString durationNs(int64_t ns); // same, from nanoseconds
QString seconds(double s);      // "12.3 s", "2 min 05 s", "1 h 02 min"
QString bytes(double bytes);    // "512 B", "3.4 KiB", "1.20 GiB"
QString count(double value);    // "950", "12.3 k", "4.56 M", "1.2 G"
QString flops(double flops);    // "1.23 GFLOP"
QString rate(double per_second, const QString& unit); // "1,234 images/s"
QString percent(double fraction);                     // 0.123 -> "12.3 %", NaN -> "–"
QString number(double value, int precision = 3);      // NaN -> "–"

} // namespace ts::gui::format
