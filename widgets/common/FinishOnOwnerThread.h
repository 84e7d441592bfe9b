#pragma once
// Ends a job that ran on a std::thread owned by a QObject. Called as the
// worker's last statement, it queues onto the owner's (GUI) thread a call that
// joins the now-finishing thread, clears the running flag and reports. The
// call is dropped if the owner is destroyed first (its destructor joins).
#include <thread>
#include <utility>

#include <QMetaObject>
#include <QObject>

namespace ts::gui {

template <typename Report>
void finishOnOwnerThread(QObject* owner, std::thread& thread, bool& running, Report report) {
    QMetaObject::invokeMethod(
        owner,
        [&thread, &running, report = std::move(report)] {
            if (thread.joinable()) thread.join();
            running = false;
            report();
        },
        Qt::QueuedConnection);
}

} // namespace ts::gui
