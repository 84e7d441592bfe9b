#include "experiments/MemoryGuard.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ts {

double memoryExponent(const std::string& key) {
    if (key == "batch_size") return 1;
    if (key == "image_size") return 2;
    return 0;
}

std::string formatMiB(int64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.0f MiB", double(bytes) / (1024.0 * 1024.0));
    return text;
}

MemoryPrediction predictMemory(const std::vector<MeasuredMemory>& samples, double x,
                               double exponent) {
    std::vector<MeasuredMemory> usable;
    for (const auto& s : samples)
        if (s.memory_bytes > 0 && s.x > 0 && s.x < x) usable.push_back(s);
    MemoryPrediction p;
    if (usable.empty() || exponent <= 0) return p;
    p.known = true;
    auto scaled = [exponent](double v) { return std::pow(v, exponent); };
    int64_t largest = 0;
    for (const auto& s : usable)
        largest = std::max(largest, s.memory_bytes);
    if (usable.size() == 1) {
        const auto& s = usable[0];
        p.bytes = int64_t(double(s.memory_bytes) * scaled(x) / scaled(s.x));
        p.basis = "scaled from one smaller point";
        return p;
    }
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const auto& s : usable) {
        const double u = scaled(s.x), v = double(s.memory_bytes);
        n += 1, sx += u, sy += v, sxx += u * u, sxy += u * v;
    }
    const double denom = n * sxx - sx * sx;
    const double slope = denom != 0 ? (n * sxy - sx * sy) / denom : 0;
    const double intercept = (sy - slope * sx) / n;
    p.bytes = std::max<int64_t>(largest, int64_t(intercept + std::max(0.0, slope) * scaled(x)));
    p.basis = "fitted to " + std::to_string(usable.size()) + " smaller points";
    return p;
}

GuardDecision guardPoint(const MemoryPrediction& prediction, int64_t available_bytes,
                         double margin) {
    GuardDecision d;
    d.predicted_bytes = prediction.known ? prediction.bytes : 0;
    d.available_bytes = available_bytes;
    if (!prediction.known) return d;
    const double budget = margin * double(available_bytes);
    if (double(prediction.bytes) <= budget) return d;
    d.run = false;
    char share[32];
    std::snprintf(share, sizeof(share), "%.0f%%", margin * 100);
    d.reason = "predicted to need " + formatMiB(prediction.bytes) + " (" + prediction.basis +
               ") but only " + formatMiB(available_bytes) + " is available (" + share +
               " of it may be used)";
    return d;
}

} // namespace ts
