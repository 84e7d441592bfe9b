#pragma once
// The main window's tabs and their command-line / settings names.
#include <optional>

#include <QString>

namespace ts::gui {

// The values are the tab indices: Overview comes first because it is what a
// newly opened trace or run shows.
enum class View {
    Overview = 0,
    Live = 1,
    Operators = 2,
    Kernels = 3,
    Timeline = 4,
    Runs = 5,
    Experiments = 6,
    Roofline = 7,
};

QString viewName(View view);                           // "overview", "live", ...
std::optional<View> viewFromName(const QString& name); // nullopt when unknown

} // namespace ts::gui
