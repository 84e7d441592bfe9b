#include "shell/TraceFile.h"

#include "util/BackgroundWrites.h"

namespace ts::gui {

std::shared_ptr<const Trace> readTraceFile(const QString& path, const ReadProgress& progress,
                                           TraceOpening* opened) {
    const TraceCacheSettings settings;
    TraceOpening opening;
    auto trace =
        std::make_shared<const Trace>(openTrace(path.toStdString(), progress, settings, opening));
    if (opened) *opened = opening;
    // The index is written beside the analysis, not before it: the document
    // shows as soon as it is analysed, and the writes are waited for at exit,
    // so one under way completes (it is atomic in any case).
    if (!opening.from_index && opening.key)
        writeInBackground(
            [trace, settings, opening]() mutable { keepTraceIndex(*trace, settings, opening); });
    return trace;
}

} // namespace ts::gui
