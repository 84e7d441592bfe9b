#include "shell/TraceFile.h"

#include <QThreadPool>

namespace ts::gui {

std::shared_ptr<const Trace> readTraceFile(const QString& path, const ReadProgress& progress,
                                           TraceOpening* opened) {
    const TraceCacheSettings settings;
    TraceOpening opening;
    auto trace =
        std::make_shared<const Trace>(openTrace(path.toStdString(), progress, settings, opening));
    if (opened) *opened = opening;
    // The index is written beside the analysis, not before it: the document
    // shows as soon as it is analysed, and the pool is drained at exit, so a
    // write under way completes (it is atomic in any case).
    if (!opening.from_index && opening.key)
        QThreadPool::globalInstance()->start(
            [trace, settings, opening]() mutable { keepTraceIndex(*trace, settings, opening); });
    return trace;
}

} // namespace ts::gui
