#pragma once
// Light and dark palettes on the Fusion style. "System" keeps the platform
// palette. Charts and the timeline read colours from the palette, so they
// follow the theme when it changes.
#include <QColor>
#include <QPalette>

#include "common/AppSettings.h"

namespace ts::gui {

QPalette lightPalette();
QPalette darkPalette();
// Applies the theme to the running QApplication (style, palette).
void applyTheme(Theme theme);
// True when the palette's window colour is dark (chooses contrasting colours).
bool isDark(const QPalette& palette);

// Colours for data series that read well on both palettes (index wraps).
QColor seriesColor(int index);

} // namespace ts::gui
