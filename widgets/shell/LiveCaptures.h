#pragma once
// The run in progress as a document (the registry's "run-in-progress"
// stream): each profiling window the engine closes becomes a document whose
// trace is that window's, analysed off the GUI thread like an opened trace's
// and shown in every view. A window that closes while the last is analysed
// waits; only the newest waiting one is analysed next.
#include <memory>

#include <QObject>
#include <QString>

#include "jobs/OneShot.h"
#include "shell/OpenedDocument.h"
#include "training/LiveUpdate.h"

namespace ts::gui {

class LiveCaptures : public QObject {
    Q_OBJECT
public:
    explicit LiveCaptures(QObject* parent = nullptr);
    ~LiveCaptures() override; // cancels the analysis in flight and waits for it

    bool analysing() const { return job_.isRunning(); }

public slots:
    void runStarted(const ts::gui::RunLaunch& launch);
    void update(const ts::gui::LiveUpdate& update);

signals:
    // A window's document, analysed: the views show it.
    void captured(const ts::gui::OpenedDocument& document);

private:
    void analyse(std::shared_ptr<const ProfileCapture> capture);
    void onAnalysed(OpenedDocument document);

    QString run_dir_;
    std::shared_ptr<const ProfileCapture> next_; // closed while another was analysed
    OneShot<OpenedDocument> job_;                // last: cancelled and joined first
};

// The document of one profiling window of the run in `run_dir` (blocking;
// off the GUI thread).
OpenedDocument captureDocument(const std::shared_ptr<const ProfileCapture>& capture,
                               const QString& run_dir, const CancelFlag* cancel);

} // namespace ts::gui
