#include "common/Format.h"

#include <cmath>

#include <QLocale>

namespace ts::gui::format {
namespace {

const QString kUnknown = QStringLiteral("–");

// Three significant digits keep columns compact without hiding differences.
QString significant(double value) {
    const double magnitude = std::fabs(value);
    const int decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
    return QString::number(value, 'f', decimals);
}

QString scaled(double value, const char* const* units, int unit_count, double step) {
    int unit = 0;
    while (std::fabs(value) >= step && unit + 1 < unit_count) {
        value /= step;
        ++unit;
    }
    return significant(value) + QLatin1Char(' ') + QLatin1String(units[unit]);
}

} // namespace

QString duration(double ms) {
    if (!std::isfinite(ms)) return kUnknown;
    if (std::fabs(ms) < 1e-3) return significant(ms * 1e6) + QStringLiteral(" ns");
    if (std::fabs(ms) < 1.0) return significant(ms * 1e3) + QStringLiteral(" µs");
    if (std::fabs(ms) < 1000.0) return significant(ms) + QStringLiteral(" ms");
    return seconds(ms / 1000.0);
}

QString durationNs(int64_t ns) {
    return duration(double(ns) / 1e6);
}

QString seconds(double s) {
    if (!std::isfinite(s)) return kUnknown;
    if (s < 60) return significant(s) + QStringLiteral(" s");
    const auto total = int64_t(std::llround(s));
    if (total < 3600)
        return QStringLiteral("%1 min %2 s")
            .arg(total / 60)
            .arg(total % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1 h %2 min")
        .arg(total / 3600)
        .arg((total % 3600) / 60, 2, 10, QLatin1Char('0'));
}

QString bytes(double value) {
    if (!std::isfinite(value)) return kUnknown;
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    if (std::fabs(value) < 1024) return QString::number(int64_t(value)) + QStringLiteral(" B");
    return scaled(value, units, 5, 1024.0);
}

QString count(double value) {
    if (!std::isfinite(value)) return kUnknown;
    static const char* const units[] = {"", "k", "M", "G", "T"};
    if (std::fabs(value) < 1000) return QString::number(value, 'g', 4);
    return scaled(value, units, 5, 1000.0);
}

QString flops(double value) {
    if (!std::isfinite(value) || value <= 0) return kUnknown;
    static const char* const units[] = {"FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP"};
    return scaled(value, units, 6, 1000.0);
}

QString rate(double per_second, const QString& unit) {
    if (!std::isfinite(per_second)) return kUnknown;
    const int decimals = per_second >= 100 ? 0 : 1;
    return QLocale().toString(per_second, 'f', decimals) + QLatin1Char(' ') + unit;
}

QString percent(double fraction) {
    if (!std::isfinite(fraction)) return kUnknown;
    return QString::number(fraction * 100.0, 'f', 1) + QStringLiteral(" %");
}

QString number(double value, int precision) {
    if (!std::isfinite(value)) return kUnknown;
    return QString::number(value, 'g', precision);
}

} // namespace ts::gui::format
