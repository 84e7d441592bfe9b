#include "sources/Document.h"

namespace ts::sources {

bool Document::provides(views::Input input) const {
    using views::Input;
    switch (input) {
    case Input::Trace:
        return trace != nullptr;
    case Input::TraceOrRun:
        return trace || run;
    case Input::RankFolder:
        return distributed || !distributed_error.empty();
    case Input::TraceOrRanks:
        // A view of one trace or of each rank's: the GUI shows it of one
        // trace (a rank folder's lowest rank), which a folder of rank
        // summaries alone lacks.
        return trace != nullptr;
    case Input::Run:
        return run.has_value();
    case Input::Snapshot:
        return snapshot != nullptr;
    case Input::MemoryTimeline:
        return categories != nullptr;
    case Input::TwoDocuments: // any document is one of the two
    case Input::RunsFolder:   // the runs folder is there whatever is open
        return true;
    }
    return false;
}

std::string Document::title() const {
    const std::string name = std::filesystem::path(path).filename().string();
    if (run) return run->info.config.name + " (" + name + ")";
    return name;
}

} // namespace ts::sources
