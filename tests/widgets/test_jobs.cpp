// The GUI's one background-job idiom (jobs/BackgroundJob + UpdateQueue): the
// worker only appends, the owner's drain sees every update in order, finished
// arrives on the owner's thread after the last drain, and a stop or the
// destructor joins the worker cleanly at any moment.
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include <QSignalSpy>
#include <QThread>
#include <QtTest>

#include "WidgetTests.h"
#include "jobs/BackgroundJob.h"
#include "jobs/UpdateQueue.h"

using namespace ts::gui;

namespace {

constexpr int kTimeoutMs = 10000;

// Counts up until stopped (or `limit`), one value per ~0.2 ms.
struct Counter {
    BackgroundJob job;
    UpdateQueue<int> queue;
    std::vector<int> drained;
    std::vector<QThread*> drain_threads;
    std::atomic<bool> work_returned{false};
    int drains_after_finished = 0;
    bool finished = false;

    explicit Counter(int limit) {
        job.setDrain([this] {
            drain_threads.push_back(QThread::currentThread());
            if (finished) ++drains_after_finished;
            for (int value : queue.take())
                drained.push_back(value);
        });
        QObject::connect(&job, &BackgroundJob::finished, [this] { finished = true; });
        job.start([this, limit] {
            for (int i = 0; i < limit && !job.stopRequested(); ++i) {
                queue.push(i);
                std::this_thread::sleep_for(std::chrono::microseconds(200));
            }
            work_returned = true;
        });
    }
};

bool inOrder(const std::vector<int>& values) {
    for (size_t i = 0; i < values.size(); ++i)
        if (values[i] != int(i)) return false;
    return true;
}

} // namespace

class JobsTest : public QObject {
    Q_OBJECT
private slots:
    void drainsEveryUpdateInOrderThenFinishesOnTheOwnerThread() {
        Counter counter(2000);
        QThread* finished_on = nullptr;
        QObject::connect(&counter.job, &BackgroundJob::finished,
                         [&finished_on] { finished_on = QThread::currentThread(); });
        QVERIFY(counter.job.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(counter.finished, kTimeoutMs);
        QCOMPARE(finished_on, QThread::currentThread());
        QCOMPARE(int(counter.drained.size()), 2000); // the last drain came before finished
        QVERIFY(inOrder(counter.drained));
        QVERIFY(counter.drain_threads.size() > 1); // drained while running, not only at the end
        for (QThread* thread : counter.drain_threads)
            QCOMPARE(thread, QThread::currentThread());
        QCOMPARE(counter.drains_after_finished, 0);
        QVERIFY(!counter.job.isRunning());
    }

    void stopEndsTheWorkAtAnyMoment() {
        for (int wait_ms : {0, 1, 5, 30, 100}) {
            Counter counter(1000000);
            int hooks = 0;
            counter.job.setStopHook([&hooks] { ++hooks; });
            QSignalSpy stopping(&counter.job, &BackgroundJob::stopping);
            if (wait_ms > 0) QTest::qWait(wait_ms);
            counter.job.requestStop();
            counter.job.requestStop(); // twice: one hook call, one stopping()
            QTRY_VERIFY_WITH_TIMEOUT(counter.finished, kTimeoutMs);
            QVERIFY(counter.work_returned);
            QCOMPARE(hooks, 1);
            QCOMPARE(stopping.count(), 1);
            QVERIFY(inOrder(counter.drained));
            QVERIFY(!counter.job.isRunning());
            counter.job.requestStop(); // after the end: nothing happens
            QCOMPARE(hooks, 1);
        }
    }

    void destroyingARunningJobJoinsIt() {
        for (int wait_ms : {0, 2, 20}) {
            auto returned = std::make_shared<std::atomic<bool>>(false);
            auto job = std::make_unique<BackgroundJob>();
            UpdateQueue<int> queue;
            job->setDrain([&queue] { queue.take(); });
            BackgroundJob* raw = job.get();
            job->start([raw, returned, &queue] {
                while (!raw->stopRequested()) {
                    queue.push(1);
                    std::this_thread::sleep_for(std::chrono::microseconds(200));
                }
                *returned = true;
            });
            if (wait_ms > 0) QTest::qWait(wait_ms);
            QVERIFY(!*returned);
            job.reset(); // the destructor stops and joins; the queued finish is dropped
            QVERIFY(*returned);
            QTest::qWait(2 * BackgroundJob::kTickMs);
        }
    }

    void refusesASecondStartAndRunsAgainAfterwards() {
        BackgroundJob job;
        std::atomic<bool> release{false};
        QVERIFY(job.start([&release] {
            while (!release)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }));
        QVERIFY(!job.start([] {}));
        QSignalSpy finished(&job, &BackgroundJob::finished);
        release = true;
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        std::atomic<int> runs{0};
        QVERIFY(job.start([&runs] { ++runs; }));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kTimeoutMs);
        QCOMPARE(runs.load(), 1);
        QVERIFY(!job.stopRequested()); // a new job starts unstopped
    }
};

TRAINSCOPE_WIDGET_TEST(test_jobs, JobsTest)
#include "test_jobs.moc"
