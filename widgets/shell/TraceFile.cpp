#include "shell/TraceFile.h"

#include "trace/ChromeTraceReader.h"

namespace ts::gui {

std::shared_ptr<const Trace> readTraceFile(const QString& path, const ReadProgress& progress) {
    return std::make_shared<const Trace>(readChromeTraceFile(path.toStdString(), progress));
}

} // namespace ts::gui
