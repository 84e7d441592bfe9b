#pragma once
// The GUI's views by id, and their command-line / settings names. Each id has
// an entry in the view registry (shell/ViewRegistry.h), which gives its name,
// title and group (report/ViewCatalog.h); the id is not a tab index.
#include <optional>
#include <vector>

#include <QString>

namespace ts::gui {

enum class View {
    Overview,
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
    Temporal,
    IdleTime,
    Launches,
    KernelTypes,
    QueueLength,
    MemoryBandwidth,
    Annotations,
    KernelSequences,
    CriticalPath,
    Query,
    Snapshot,
    MemoryCategories,
};

const std::vector<View>& allViews();                   // in the registry's order
QString viewName(View view);                           // "overview", "live", ...
QString viewNameList();                                // "overview, live, ..., experiments"
std::optional<View> viewFromName(const QString& name); // nullopt when unknown

} // namespace ts::gui
