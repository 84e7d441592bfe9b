#pragma once
// Opens runs and traces off the GUI thread (a 1,000,000-event trace takes a
// few seconds to parse) and hands the result back as one value.
// One load at a time; further opens wait in line, so every path asked for is
// opened, in order (--open given several times). While a trace is read its
// progress is polled from shared atomics and the load can be cancelled: the
// worker never calls into Qt objects, so it cannot outlive one it talks to.
// The load is a OneShot (jobs/OneShot.h); its cancel stops the read and the
// analysis after it.
#include <memory>

#include <QObject>
#include <QStringList>
#include <QTimer>

#include "jobs/OneShot.h"
#include "shell/OpenedDocument.h"

namespace ts::gui {

class DocumentLoader : public QObject {
    Q_OBJECT
public:
    explicit DocumentLoader(QObject* parent = nullptr);
    // Cancels the load in flight and waits for it (promptly: the reader
    // checks once per MB).
    ~DocumentLoader() override;

    // Loading, or paths waiting in line.
    bool busy() const { return loading_active_ || !queued_.isEmpty(); }
    QString loadingPath() const { return loading_active_ ? loading_ : QString(); }
    // Traces of more events leave their Operators, Kernels, Memory and
    // Modules views for when they are first shown (tests lower it).
    void setDeferViewsAbove(size_t events) { defer_views_above_ = events; }

public slots:
    void open(const QString& path);
    // Stops the load in flight; it ends with a document whose `cancelled` is
    // set. Paths waiting in line still open.
    void cancel();

signals:
    void started(const QString& path);
    // Bytes of the trace file read so far, of `total` (0 while unknown).
    void progressed(const QString& path, qint64 done, qint64 total);
    void opened(const ts::gui::OpenedDocument& document);

private:
    struct Shared; // between this thread and the worker
    void start(const QString& path);
    void poll();
    void onFinished(OpenedDocument doc);

    std::shared_ptr<Shared> shared_;
    QTimer poll_;
    QString loading_;
    QStringList queued_;
    qint64 last_done_ = -1;
    // From start() until onFinished() ran (a slot of `opened` may start the
    // next load before the OneShot is idle again).
    bool loading_active_ = false;
    size_t defer_views_above_ = sources::kDeferViewsAboveEvents;
    OneShot<OpenedDocument> job_; // last: cancelled and joined first
};

} // namespace ts::gui
