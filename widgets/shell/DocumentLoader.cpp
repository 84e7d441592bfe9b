#include "shell/DocumentLoader.h"

#include <atomic>

#include <QtConcurrent/QtConcurrentRun>

namespace ts::gui {
namespace {

// Often enough for a smooth bar; the reader itself reports once per MB.
constexpr int kPollMs = 50;

} // namespace

struct DocumentLoader::Shared {
    std::atomic<uint64_t> done{0};
    std::atomic<uint64_t> total{0};
    std::atomic<bool> cancel{false};
};

DocumentLoader::DocumentLoader(QObject* parent) : QObject(parent) {
    qRegisterMetaType<OpenedDocument>();
    connect(&watcher_, &QFutureWatcher<OpenedDocument>::finished, this,
            &DocumentLoader::onFinished);
    poll_.setInterval(kPollMs);
    connect(&poll_, &QTimer::timeout, this, &DocumentLoader::poll);
}

DocumentLoader::~DocumentLoader() {
    queued_.clear();
    if (shared_) shared_->cancel = true;
    watcher_.waitForFinished();
}

void DocumentLoader::open(const QString& path) {
    if (loading_active_)
        queued_.append(path);
    else
        start(path);
}

void DocumentLoader::cancel() {
    if (loading_active_ && shared_) shared_->cancel = true;
}

void DocumentLoader::start(const QString& path) {
    loading_ = path;
    loading_active_ = true;
    last_done_ = -1;
    shared_ = std::make_shared<Shared>();
    ReadProgress progress;
    // Runs on the worker: stores the figures for poll() and answers the cancel.
    progress.report = [shared = shared_](uint64_t done, uint64_t total) {
        shared->total = total;
        shared->done = done;
        return !shared->cancel.load();
    };
    emit started(path);
    emit progressed(path, 0, 0);
    watcher_.setFuture(
        QtConcurrent::run([path, progress = std::move(progress), defer = defer_views_above_] {
            return openDocument(path, progress, defer);
        }));
    poll_.start();
}

void DocumentLoader::poll() {
    if (!shared_) return;
    const auto done = static_cast<qint64>(shared_->done.load());
    if (done == last_done_) return;
    last_done_ = done;
    emit progressed(loading_, done, static_cast<qint64>(shared_->total.load()));
}

void DocumentLoader::onFinished() {
    poll_.stop();
    loading_active_ = false;
    const OpenedDocument doc = watcher_.result();
    emit opened(doc);
    // A slot of `opened` may have started the next load already.
    if (!queued_.isEmpty() && !loading_active_) start(queued_.takeFirst());
}

} // namespace ts::gui
