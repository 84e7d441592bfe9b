#pragma once
// The main window's tabs and their command-line / settings names.
#include <optional>

#include <QString>

namespace ts::gui {

enum class View { Live = 0, Operators = 1, Timeline = 2, Runs = 3, Experiments = 4, Roofline = 5 };

QString viewName(View view);                           // "live", "operators", ...
std::optional<View> viewFromName(const QString& name); // nullopt when unknown

} // namespace ts::gui
