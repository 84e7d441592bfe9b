#pragma once
// Opens runs and traces off the GUI thread (a 1,000,000-event trace takes a
// few seconds to parse) and hands the result back as one value.
// A one-shot load with no progress to stream and nothing to cancel, so it
// stays a QtConcurrent future rather than a BackgroundJob (jobs/): there is
// no buffer to drain, and the future's watcher already reports on this thread.
#include <QFutureWatcher>
#include <QObject>

#include "shell/OpenedDocument.h"

namespace ts::gui {

class DocumentLoader : public QObject {
    Q_OBJECT
public:
    explicit DocumentLoader(QObject* parent = nullptr);
    bool busy() const { return watcher_.isRunning(); }

public slots:
    // A second open while one is loading replaces the pending one.
    void open(const QString& path);

signals:
    void started(const QString& path);
    void opened(const ts::gui::OpenedDocument& document);

private:
    void onFinished();
    QFutureWatcher<OpenedDocument> watcher_;
    QString queued_;
};

} // namespace ts::gui
