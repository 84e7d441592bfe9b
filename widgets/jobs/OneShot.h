#pragma once
// One computation off the GUI thread with one result: opening a document, a
// large trace's deferred views, scanning the runs folder, measuring peaks,
// probing the machine. It is a BackgroundJob (the GUI's one way to run work
// off its thread) without a drain: the work's return value is kept, and once
// the owner's thread has joined the worker (the hand-over ThreadSanitizer
// sees) `done` gets it there. cancel() requests the CancelFlag the work is
// given; destroying a OneShot cancels it and joins the worker.
#include <exception>
#include <functional>
#include <memory>
#include <optional>

#include <QtGlobal>

#include "jobs/BackgroundJob.h"
#include "util/Cancel.h"

namespace ts::gui {

template <typename T> class OneShot {
public:
    // `done` runs on the creating thread with each result, in order.
    explicit OneShot(std::function<void(T)> done)
        : job_(std::make_unique<BackgroundJob>()), done_(std::move(done)) {
        QObject::connect(job_.get(), &BackgroundJob::finished, job_.get(), [this] {
            T result = std::move(*result_);
            result_.reset();
            done_(std::move(result));
        });
    }
    ~OneShot() {
        cancel();
        job_->stopAndJoin();
    }
    OneShot(const OneShot&) = delete;
    OneShot& operator=(const OneShot&) = delete;

    // Runs `work` on a thread of its own; false (nothing done) while one runs.
    // `work` should not throw: Cancelled gives T{}, anything else is logged
    // and gives T{} too.
    bool start(std::function<T(const CancelFlag&)> work) {
        if (job_->isRunning()) return false;
        cancel_ = std::make_shared<CancelFlag>();
        return job_->start([this, work = std::move(work), cancel = cancel_] {
            try {
                result_ = work(*cancel);
            } catch (const Cancelled&) {
                result_ = T{};
            } catch (const std::exception& error) {
                qWarning("background work failed: %s", error.what());
                result_ = T{};
            }
        });
    }
    // The running work's flag is requested; it ends at its next check.
    void cancel() {
        if (cancel_) cancel_->request();
    }
    bool isRunning() const { return job_->isRunning(); }

private:
    std::unique_ptr<BackgroundJob> job_;
    std::function<void(T)> done_;
    std::shared_ptr<CancelFlag> cancel_; // the running work's
    std::optional<T> result_;            // written by the worker, read after its join
};

} // namespace ts::gui
