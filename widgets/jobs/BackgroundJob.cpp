#include "jobs/BackgroundJob.h"

namespace ts::gui {

BackgroundJob::BackgroundJob(QObject* parent) : QObject(parent) {
    timer_.setInterval(kTickMs);
    connect(&timer_, &QTimer::timeout, this, [this] {
        if (drain_) drain_();
    });
    // Queued to the owner's thread; dropped if this object is destroyed
    // first (the destructor joins instead).
    connect(this, &BackgroundJob::workReturned, this, &BackgroundJob::finish, Qt::QueuedConnection);
}

BackgroundJob::~BackgroundJob() {
    stopAndJoin();
}

bool BackgroundJob::start(std::function<void()> work) {
    if (running_) return false;
    stop_requested_ = false;
    running_ = true;
    thread_ = std::thread([this, work = std::move(work)] {
        work();
        emit workReturned(QPrivateSignal());
    });
    timer_.start();
    return true;
}

void BackgroundJob::requestStop() {
    if (!running_ || stop_requested_.exchange(true)) return;
    if (stop_hook_) stop_hook_();
    emit stopping();
}

void BackgroundJob::stopAndJoin() {
    requestStop();
    if (thread_.joinable()) thread_.join();
    timer_.stop();
}

void BackgroundJob::finish() {
    if (thread_.joinable()) thread_.join();
    timer_.stop();
    if (drain_) drain_(); // whatever arrived after the last tick
    running_ = false;
    emit finished();
}

} // namespace ts::gui
