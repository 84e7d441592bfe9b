#pragma once
// The one way the GUI runs long work off its thread (a training run, a sweep,
// a ladder, a pruning study). The worker never touches widgets: it appends to
// a buffer its owner keeps (LiveBuffer, UpdateQueue), and a ~30 Hz timer on
// the owner's thread drains that buffer, so views redraw once per tick however
// fast the worker reports. When the work returns, the owner's thread joins it,
// drains once more and emits finished(): nothing that arrived is lost and
// every signal of a job reaches its owner in the order it was produced.
//
// Cancellation is cooperative: requestStop() sets a flag the work polls and
// calls the stop hook (e.g. Trainer::requestCancel) so a blocking step ends
// early. The destructor requests a stop and joins, so a job can be destroyed
// at any moment.
#include <atomic>
#include <functional>
#include <thread>

#include <QObject>
#include <QTimer>

namespace ts::gui {

class BackgroundJob : public QObject {
    Q_OBJECT
public:
    static constexpr int kTickMs = 33;

    explicit BackgroundJob(QObject* parent = nullptr);
    ~BackgroundJob() override; // requests a stop and joins the worker

    // Called on the owner's thread every tick while the work runs and once
    // after it returned (before finished()). Set before start().
    void setDrain(std::function<void()> drain) { drain_ = std::move(drain); }
    // Called by requestStop() on the owner's thread, at most once per job, to
    // interrupt what the work is blocked in. Set before the first requestStop().
    void setStopHook(std::function<void()> hook) { stop_hook_ = std::move(hook); }

    // Runs `work` on a new thread and starts draining. False while a job runs.
    bool start(std::function<void()> work);
    // Any moment, any number of times; the work ends at its next check.
    void requestStop();
    // requestStop() and wait for the worker: for owners whose destructors
    // free what the work or the stop hook uses. The last drain and finished()
    // still follow on the owner's thread unless the job is destroyed first.
    void stopAndJoin();

    bool isRunning() const { return running_; }
    // Thread-safe: what the work polls.
    bool stopRequested() const { return stop_requested_.load(); }

signals:
    // The first requestStop() of a running job.
    void stopping();
    // Owner's thread: the worker was joined and drained for the last time.
    void finished();
    // Internal: the worker's last act, queued to finish() on the owner's
    // thread. A signal rather than a posted lambda: the lambda would be
    // written by the worker and read by the owner through Qt's event queue,
    // a hand-over ThreadSanitizer cannot see (tests/tsan/README.md).
    // So never block a job's signals or disconnect it wholesale: finish()
    // would not come, and the job would stay running until destroyed.
    void workReturned(QPrivateSignal);

private:
    void finish();

    std::function<void()> drain_;
    std::function<void()> stop_hook_;
    QTimer timer_;
    std::thread thread_;
    std::atomic<bool> stop_requested_{false};
    bool running_ = false;
};

} // namespace ts::gui
