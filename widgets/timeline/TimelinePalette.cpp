#include "timeline/TimelinePalette.h"

#include <functional>

namespace ts::gui {
namespace {

// FNV-1a: stable across runs and platforms (std::hash is not).
uint32_t stableHash(const std::string& text) {
    uint32_t h = 2166136261u;
    for (unsigned char c : text) {
        h ^= c;
        h *= 16777619u;
    }
    return h;
}

} // namespace

QColor TimelinePalette::pick(const std::string& name, EventKind kind, bool dark) {
    const uint32_t h = stableHash(name);
    int hue = 0;
    int saturation = 120 + int(h >> 8 & 0x3f);
    int value = dark ? 170 + int(h >> 16 & 0x1f) : 205 + int(h >> 16 & 0x1f);
    switch (kind) {
    case EventKind::Backward:
        hue = int(h % 70) - 20;
        break; // reds, oranges
    case EventKind::Annotation:
    case EventKind::DataLoader:
    case EventKind::ProfilerStep:
    case EventKind::ProfilerRange:
        hue = 250 + int(h % 40);
        saturation = 50;
        break; // muted violet
    case EventKind::Runtime:
        hue = 0;
        saturation = 20;
        break; // grey-pink: launch overhead
    case EventKind::Communication:
        hue = 290 + int(h % 30);
        break; // magenta
    case EventKind::Kernel:
        hue = 160 + int(h % 30);
        break; // teal
    case EventKind::Memcpy:
    case EventKind::Memset:
        hue = 50 + int(h % 10);
        break; // yellow
    case EventKind::Operator:
    case EventKind::Python:
    case EventKind::Other:
        hue = 80 + int(h % 150);
        break; // greens to blues
    }
    return QColor::fromHsv((hue + 360) % 360, std::min(saturation, 255), std::min(value, 255));
}

void TimelinePalette::build(const Trace& trace, bool dark) {
    for (auto& v : by_name_)
        v.assign(trace.names.size(), QColor());
    annotation_.assign(trace.names.size(), QColor());
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const EventCore& e = trace.events.core(i);
        if (e.name >= trace.names.size()) continue;
        QColor& slot = e.kind == EventKind::Annotation ? annotation_[e.name]
                       : e.kind == EventKind::Backward ? by_name_[1][e.name]
                                                       : by_name_[0][e.name];
        if (!slot.isValid()) slot = pick(trace.names[e.name], e.kind, dark);
    }
    fallback_ = dark ? QColor(110, 110, 120) : QColor(190, 190, 200);
}

const QColor& TimelinePalette::colorOf(const EventCore& e) const {
    const std::vector<QColor>& table = e.kind == EventKind::Annotation ? annotation_
                                       : e.kind == EventKind::Backward ? by_name_[1]
                                                                       : by_name_[0];
    if (e.name < table.size() && table[e.name].isValid()) return table[e.name];
    return fallback_;
}

} // namespace ts::gui
