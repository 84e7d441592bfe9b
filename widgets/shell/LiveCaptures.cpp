#include "shell/LiveCaptures.h"

#include "sources/SourceRegistry.h"
#include "sources/TraceDocument.h"
#include "trace/Trace.h"

namespace ts::gui {

OpenedDocument captureDocument(const std::shared_ptr<const ProfileCapture>& capture,
                               const QString& run_dir, const CancelFlag* cancel) {
    OpenedDocument doc;
    doc.path = run_dir.toStdString();
    doc.source = &sources::sourceKind("run-in-progress");
    // Aliasing pointer: the trace lives as long as its capture.
    doc.trace = std::shared_ptr<const Trace>(capture, &capture->trace);
    doc.trace_path = doc.path;
    doc.label = QObject::tr("Profiling window %1 of the current run: steps %2–%3, %4 events")
                    .arg(capture->window + 1)
                    .arg(capture->first_step)
                    .arg(capture->last_step)
                    .arg(capture->trace.events.size())
                    .toStdString();
    sources::OpenRequest request;
    request.progress.cancel = cancel;
    request.defer_views_above = SIZE_MAX; // one window: every view at once
    sources::analyzeDocumentTrace(doc, request);
    return doc;
}

LiveCaptures::LiveCaptures(QObject* parent)
    : QObject(parent), job_([this](OpenedDocument doc) { onAnalysed(std::move(doc)); }) {
    qRegisterMetaType<OpenedDocument>();
}

LiveCaptures::~LiveCaptures() = default;

void LiveCaptures::runStarted(const RunLaunch& launch) {
    run_dir_ = launch.runDir;
    next_.reset();
}

void LiveCaptures::update(const LiveUpdate& update) {
    if (update.profiles.empty()) return;
    if (job_.isRunning()) {
        next_ = update.profiles.back();
        return;
    }
    analyse(update.profiles.back());
}

void LiveCaptures::analyse(std::shared_ptr<const ProfileCapture> capture) {
    job_.start([capture = std::move(capture), dir = run_dir_](const CancelFlag& cancel) {
        return captureDocument(capture, dir, &cancel);
    });
}

void LiveCaptures::onAnalysed(OpenedDocument doc) {
    if (doc.trace) emit captured(doc); // none: cancelled
    if (std::shared_ptr<const ProfileCapture> next = std::move(next_)) analyse(std::move(next));
}

} // namespace ts::gui
