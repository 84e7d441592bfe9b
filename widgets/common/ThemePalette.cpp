#include "common/ThemePalette.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

namespace ts::gui {

QPalette lightPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(246, 246, 248));
    p.setColor(QPalette::WindowText, QColor(28, 28, 32));
    p.setColor(QPalette::Base, QColor(255, 255, 255));
    p.setColor(QPalette::AlternateBase, QColor(240, 242, 246));
    p.setColor(QPalette::ToolTipBase, QColor(255, 255, 225));
    p.setColor(QPalette::ToolTipText, QColor(28, 28, 32));
    p.setColor(QPalette::PlaceholderText, QColor(128, 128, 136));
    p.setColor(QPalette::Text, QColor(28, 28, 32));
    p.setColor(QPalette::Button, QColor(236, 236, 240));
    p.setColor(QPalette::ButtonText, QColor(28, 28, 32));
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Highlight, QColor(48, 110, 200));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(30, 90, 200));
    p.setColor(QPalette::Mid, QColor(200, 200, 206));
    p.setColor(QPalette::Dark, QColor(160, 160, 168));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(150, 150, 156));
    return p;
}

QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(37, 38, 42));
    p.setColor(QPalette::WindowText, QColor(224, 224, 228));
    p.setColor(QPalette::Base, QColor(27, 28, 31));
    p.setColor(QPalette::AlternateBase, QColor(44, 45, 50));
    p.setColor(QPalette::ToolTipBase, QColor(52, 53, 58));
    p.setColor(QPalette::ToolTipText, QColor(230, 230, 234));
    p.setColor(QPalette::PlaceholderText, QColor(130, 130, 138));
    p.setColor(QPalette::Text, QColor(224, 224, 228));
    p.setColor(QPalette::Button, QColor(48, 49, 54));
    p.setColor(QPalette::ButtonText, QColor(224, 224, 228));
    p.setColor(QPalette::BrightText, QColor(255, 110, 110));
    p.setColor(QPalette::Highlight, QColor(64, 128, 220));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(110, 170, 255));
    p.setColor(QPalette::Mid, QColor(70, 71, 78));
    p.setColor(QPalette::Dark, QColor(20, 20, 22));
    p.setColor(QPalette::Light, QColor(70, 71, 78));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(110, 110, 116));
    return p;
}

void applyTheme(Theme theme) {
    // Fusion draws the same on every platform and honours custom palettes.
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    switch (theme) {
    case Theme::Light:
        QApplication::setPalette(lightPalette());
        break;
    case Theme::Dark:
        QApplication::setPalette(darkPalette());
        break;
    case Theme::System:
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    }
}

bool isDark(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor seriesColor(int index) {
    // Tableau-10-like hues: distinguishable, colour-blind tolerant, fine on dark and light.
    static const QColor colors[] = {
        QColor(78, 121, 167), QColor(242, 142, 43), QColor(225, 87, 89),   QColor(118, 183, 178),
        QColor(89, 161, 79),  QColor(237, 201, 72), QColor(176, 122, 161), QColor(255, 157, 167),
        QColor(156, 117, 95), QColor(186, 176, 172)};
    const int n = int(sizeof(colors) / sizeof(colors[0]));
    return colors[((index % n) + n) % n];
}

} // namespace ts::gui
