#include "shell/TraceFile.h"

#include <QThreadPool>

#include "trace/TraceCache.h"

namespace ts::gui {

std::shared_ptr<const Trace> readTraceFile(const QString& path, const ReadProgress& progress,
                                           bool* from_index) {
    const TraceCacheSettings settings;
    TraceOpening opening;
    auto trace =
        std::make_shared<const Trace>(openTrace(path.toStdString(), progress, settings, opening));
    if (from_index) *from_index = opening.from_index;
    // The index is written beside the analysis, not before it: the document
    // shows as soon as it is analysed, and the pool is drained at exit, so a
    // write under way completes (it is atomic in any case).
    if (!opening.from_index && opening.key)
        QThreadPool::globalInstance()->start(
            [trace, settings, opening]() mutable { keepTraceIndex(*trace, settings, opening); });
    return trace;
}

} // namespace ts::gui
