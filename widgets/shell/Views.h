#pragma once
// The main window's tabs and their command-line / settings names.
#include <optional>
#include <vector>

#include <QString>

namespace ts::gui {

// The values are the tab indices: Overview comes first because it is what a
// newly opened trace or run shows.
enum class View {
    Overview = 0,
    Live,
    Operators,
    Kernels,
    Memory,
    Modules,
    Timeline,
    Distributed,
    Diff,
    Runs,
    Experiments,
    Roofline,
};

const std::vector<View>& allViews();                   // in tab order
QString viewName(View view);                           // "overview", "live", ...
QString viewNameList();                                // "overview, live, ..., roofline"
std::optional<View> viewFromName(const QString& name); // nullopt when unknown

} // namespace ts::gui
