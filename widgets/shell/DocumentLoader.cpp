#include "shell/DocumentLoader.h"

#include <atomic>

namespace ts::gui {
namespace {

// Often enough for a smooth bar; the reader itself reports once per MB.
constexpr int kPollMs = 50;

} // namespace

struct DocumentLoader::Shared {
    std::atomic<uint64_t> done{0};
    std::atomic<uint64_t> total{0};
};

DocumentLoader::DocumentLoader(QObject* parent)
    : QObject(parent), job_([this](OpenedDocument doc) { onFinished(std::move(doc)); }) {
    qRegisterMetaType<OpenedDocument>();
    poll_.setInterval(kPollMs);
    connect(&poll_, &QTimer::timeout, this, &DocumentLoader::poll);
}

DocumentLoader::~DocumentLoader() {
    queued_.clear(); // job_ then cancels the load in flight and waits for it
}

void DocumentLoader::open(const QString& path) {
    if (loading_active_)
        queued_.append(path);
    else
        start(path);
}

void DocumentLoader::cancel() {
    if (loading_active_) job_.cancel();
}

void DocumentLoader::start(const QString& path) {
    loading_ = path;
    loading_active_ = true;
    last_done_ = -1;
    shared_ = std::make_shared<Shared>();
    emit started(path);
    emit progressed(path, 0, 0);
    job_.start([path, shared = shared_, defer = defer_views_above_](const CancelFlag& cancel) {
        sources::OpenRequest request;
        // Stores the figures for poll() and answers the cancel.
        request.progress.report = [shared, &cancel](uint64_t done, uint64_t total) {
            shared->total = total;
            shared->done = done;
            return !cancel.requested();
        };
        request.progress.cancel = &cancel; // the analysis after the read
        request.defer_views_above = defer;
        return sources::openDocument(path.toStdString(), request);
    });
    poll_.start();
}

void DocumentLoader::poll() {
    if (!shared_) return;
    const auto done = static_cast<qint64>(shared_->done.load());
    if (done == last_done_) return;
    last_done_ = done;
    emit progressed(loading_, done, static_cast<qint64>(shared_->total.load()));
}

void DocumentLoader::onFinished(OpenedDocument doc) {
    poll_.stop();
    loading_active_ = false;
    emit opened(doc);
    // A slot of `opened` may have started the next load already.
    if (!queued_.isEmpty() && !loading_active_) start(queued_.takeFirst());
}

} // namespace ts::gui
