#include "shell/DocumentLoader.h"

#include <QtConcurrent/QtConcurrentRun>

namespace ts::gui {

DocumentLoader::DocumentLoader(QObject* parent) : QObject(parent) {
    qRegisterMetaType<OpenedDocument>();
    connect(&watcher_, &QFutureWatcher<OpenedDocument>::finished, this,
            &DocumentLoader::onFinished);
}

void DocumentLoader::open(const QString& path) {
    if (watcher_.isRunning()) {
        queued_ = path;
        return;
    }
    emit started(path);
    watcher_.setFuture(QtConcurrent::run(openDocument, path));
}

void DocumentLoader::onFinished() {
    emit opened(watcher_.result());
    if (!queued_.isEmpty()) open(std::exchange(queued_, QString()));
}

} // namespace ts::gui
