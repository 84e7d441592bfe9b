#pragma once
// One colour per stack (or frame) across a snapshot's charts, so that an
// allocation has the same colour in the Active Memory Timeline, the
// allocator's segments and the flame graph.
#include <cstdint>
#include <string_view>

#include <QColor>

#include "report/ChartSpec.h"

namespace ts::gui {

inline QRgb stackColor(uint32_t stack) {
    const chart::Color c = chart::paletteColor(size_t(stack) * 2654435761u % 12);
    return qRgb(c.r, c.g, c.b);
}

// A frame's colour from its text (the flame graph merges stacks by frame).
inline QColor frameColor(std::string_view frame) {
    uint32_t h = 2166136261u; // FNV-1a
    for (char c : frame)
        h = (h ^ uint8_t(c)) * 16777619u;
    return QColor(stackColor(h)).lighter(125);
}

} // namespace ts::gui
