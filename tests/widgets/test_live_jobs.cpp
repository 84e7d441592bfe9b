// The Live jobs panel on a socket name of the test's own, polled by a
// stand-in for libkineto (KinetoClient.h): the process is listed, Trace asks
// for its next steps (its next poll receives the config), the trace the test
// writes where the ticket says is moved into the chosen folder and opened in
// the window, two traces compare in the Diff view, and a socket held by
// another daemon is said, with Retry. Also --live-jobs and --trace-steps.
#include <atomic>
#include <thread>

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "GuiFixture.h"
#include "KinetoClient.h"
#include "WidgetTests.h"
#include "common/AppSettings.h"
#include "diff/TraceDiffView.h"
#include "form/PathEdit.h"
#include "inspect/LiveJobTables.h"
#include "livejobs/LiveJobModels.h"
#include "livejobs/LiveJobsPanel.h"
#include "livejobs/TraceControls.h"
#include "ondemand/OnDemandDaemon.h"
#include "ondemand/TraceFiles.h"
#include "shell/Application.h"
#include "shell/DocumentSelector.h"

using namespace ts;
using namespace ts::gui;
using testing::KinetoClient;

namespace {

// Steps of the trace, the daemon's tick and the panel's refresh: well within.
constexpr int kPhaseTimeoutMs = 5000;

QString q(const std::string& text) {
    return QString::fromStdString(text);
}

void shoot(QWidget& widget, const QString& name) {
    const QString dir =
        qEnvironmentVariable("TRAINSCOPE_SCREENSHOT_DIR",
                             QDir::temp().filePath(QStringLiteral("trainscope-screenshots")));
    QDir().mkpath(dir);
    QTest::qWait(100); // the layout of what changed
    widget.grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

QString statusOf(const LiveJobsPanel& panel, int row) {
    const auto* model = panel.historyModel();
    return model->index(row, model->column(live_column::kStatus)).data().toString();
}

// What libkineto does with a config: writes `trace` (a file of tests/data)
// where ACTIVITIES_LOG_FILE says, with its pid inserted.
void writeTraceAsKineto(const std::string& config, const char* trace) {
    const std::string key = "ACTIVITIES_LOG_FILE=";
    const size_t at = config.find(key) + key.size();
    const std::string log_file = config.substr(at, config.find('\n', at) - at);
    QFile::copy(testing::dataFile(trace),
                q(ondemand::tracePathOfProcess(log_file, int(::getpid()))));
}

// The panel, the test's client, and one trace taken through both.
struct PolledPanel {
    QTemporaryDir dir;
    AppSettings settings{dir.filePath(QStringLiteral("settings.ini"))};
    std::string name = testing::daemonTestName("panel");
    KinetoClient client{testing::daemonTestName("client"), ""};
    LiveJobsPanel panel{settings};

    PolledPanel() {
        settings.setLiveTraceFolder(dir.filePath(QStringLiteral("traces")));
        panel.controls()->folderEdit()->setPath(settings.liveTraceFolder());
        panel.setSocketName(q(name));
    }
    std::string poll(bool busy = false) {
        std::string config = "no reply";
        ondemand::decodeConfigReply(client.ask(name, KinetoClient::ownPoll(busy)), config);
        return config;
    }
};

// A trace's output is named by the second it was asked (and the pid): a
// real process takes a poll interval to be traced, the test's a moment.
void nextSecond() {
    QTest::qWait(1000);
}

// Asks the listed process for `steps` through the Trace button, answers as
// libkineto with `trace`; the ticket, once written.
int traceThroughThePanel(PolledPanel& p, int steps, const char* trace) {
    LiveJobsPanel& panel = p.panel;
    nextSecond();
    if (!panel.selectProcess(int(::getpid()))) return 0;
    panel.controls()->stepsBox()->setValue(steps);
    const int before = panel.historyModel()->rowCount();
    QTest::mouseClick(panel.controls()->traceButton(), Qt::LeftButton);
    if (panel.historyModel()->rowCount() != before + 1) return 0;
    const int id = panel.historyModel()->rowAt(0).id;
    const std::string config = p.poll();
    if (config.find("ACTIVITIES_ITERATIONS=" + std::to_string(steps + 1)) == std::string::npos)
        return 0;
    writeTraceAsKineto(config, trace);
    if (!QTest::qWaitFor([&] { return statusOf(panel, 0) == QStringLiteral("written"); },
                         kPhaseTimeoutMs))
        return 0;
    return id;
}

} // namespace

class LiveJobsTest : public QObject {
    Q_OBJECT
private slots:
    void listsAPollingProcessAndTracesIt() {
        PolledPanel p;
        LiveJobsPanel& panel = p.panel;
        panel.resize(760, 820);
        panel.show();
        QVERIFY2(panel.daemonRunning(), qPrintable(panel.statusText()));
        auto* stack = panel.findChild<QStackedWidget*>();
        QCOMPARE(stack->currentWidget()->objectName(), QStringLiteral("liveJobsEmpty"));
        QVERIFY(panel.findChild<QLabel*>(QStringLiteral("liveJobsEmpty"))
                    ->text()
                    .contains(QStringLiteral("KINETO_USE_DAEMON=1 python train.py")));
        shoot(panel, QStringLiteral("live-jobs-empty"));

        QCOMPARE(p.poll(), std::string());
        QTRY_COMPARE(panel.processModel()->rowCount(), 1);
        QCOMPARE(stack->currentWidget(), panel.processTable());
        QCOMPARE(panel.processModel()->rowAt(0).pid, int(::getpid()));
        QVERIFY(panel.statusText().contains(QStringLiteral("1 process of 1 job")));
        // The first process listed is selected, ready to trace; a click selects another.
        QTableView* table = panel.processTable();
        QCOMPARE(table->selectionModel()->selectedRows().size(), 1);
        table->clearSelection();
        QVERIFY(!panel.controls()->traceButton()->isEnabled());
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualRect(table->model()->index(0, 0)).center());
        QVERIFY(panel.controls()->traceButton()->isEnabled());
        panel.controls()->stepsBox()->setValue(3);
        QCOMPARE(panel.controls()->traceButton()->text(), QStringLiteral("Trace the next 3 steps"));
        QSignalSpy opened(&panel, &LiveJobsPanel::openRequested);
        QTest::mouseClick(panel.controls()->traceButton(), Qt::LeftButton);
        QCOMPARE(panel.historyModel()->rowCount(), 1);
        QCOMPARE(statusOf(panel, 0), QStringLiteral("waiting for the next poll"));
        shoot(panel, QStringLiteral("live-jobs-waiting"));

        const std::string config = p.poll();
        QVERIFY2(config.find("ACTIVITIES_ITERATIONS=4") != std::string::npos, config.c_str());
        QTRY_COMPARE(statusOf(panel, 0), QStringLiteral("asked"));
        p.poll(true); // its profiler busy with our config
        QTRY_COMPARE(statusOf(panel, 0), QStringLiteral("tracing"));
        // The row stays selected through the refreshes.
        QCOMPARE(table->selectionModel()->selectedRows().size(), 1);
        shoot(panel, QStringLiteral("live-jobs-tracing"));

        writeTraceAsKineto(config, "diff/steps_a.json");
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(panel, 0), QStringLiteral("written"), kPhaseTimeoutMs);
        QCOMPARE(opened.count(), 1);
        const ondemand::TraceTicket ticket = *panel.ticket(panel.historyModel()->rowAt(0).id);
        const QString output = q(ondemand::ticketOutput(ticket));
        QCOMPARE(opened.front().front().toString(), output);
        QVERIFY(QFile::exists(output));
        QCOMPARE(QFileInfo(output).absolutePath(), QDir(p.dir.filePath("traces")).absolutePath());
        QVERIFY(panel.noticeText().contains(QStringLiteral("written")));
        shoot(panel, QStringLiteral("live-jobs-written"));

        // Asking the same process again while it is traced is refused, saying so.
        const int second = panel.trace({int(::getpid()), ""});
        QVERIFY(second != 0);
        QCOMPARE(panel.trace({int(::getpid()), ""}), 0);
        QVERIFY2(panel.noticeText().contains(QStringLiteral("already being traced")),
                 qPrintable(panel.noticeText()));
    }

    void twoTracesOfTheHistoryDiff() {
        PolledPanel p;
        LiveJobsPanel& panel = p.panel;
        panel.resize(760, 820);
        panel.show();
        p.poll();
        QTRY_COMPARE(panel.processModel()->rowCount(), 1);
        const int first = traceThroughThePanel(p, 2, "diff/steps_a.json");
        QVERIFY(first != 0);
        panel.selectTraces({first});
        QVERIFY(panel.openButton()->isEnabled());
        QVERIFY(!panel.diffButton()->isEnabled());
        const int second = traceThroughThePanel(p, 2, "diff/steps_b.json");
        QVERIFY(second != 0);
        QCOMPARE(panel.historyModel()->rowAt(0).id, second); // newest first
        panel.selectTraces({first, second});
        QVERIFY(panel.diffButton()->isEnabled());
        QSignalSpy diffs(&panel, &LiveJobsPanel::diffRequested);
        QTest::mouseClick(panel.diffButton(), Qt::LeftButton);
        QCOMPARE(diffs.count(), 1);
        QCOMPARE(diffs.front()[0].toString(), q(ondemand::ticketOutput(*panel.ticket(first))));
        QCOMPARE(diffs.front()[1].toString(), q(ondemand::ticketOutput(*panel.ticket(second))));
        // A double-click opens one again.
        QSignalSpy opened(&panel, &LiveJobsPanel::openRequested);
        QTableView* history = panel.historyTable();
        const QModelIndex row = history->model()->index(1, 0);
        emit history->activated(row); // a double-click, or Enter
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.front().front().toString(),
                 q(ondemand::ticketOutput(*panel.ticket(first))));
    }

    void theWindowOpensEachTraceAndDiffsTwo() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(Machine::beforeLibTorch());
        const std::string name = testing::daemonTestName("window");
        KinetoClient client(testing::daemonTestName("window-client"), "");
        LiveJobsPanel* panel = window.liveJobs();
        panel->setSocketName(q(name));
        QVERIFY(!panel->isVisible());
        QVERIFY(!panel->daemonRunning()); // not asked: the socket is left alone
        const int width = window.width();
        window.showLiveJobs();
        QTest::qWait(50);
        QCOMPARE(window.width(), width); // beside the form, not beside the views
        QVERIFY(panel->isVisible());
        QVERIFY2(panel->daemonRunning(), qPrintable(panel->statusText()));
        const auto poll = [&] {
            std::string config;
            ondemand::decodeConfigReply(client.ask(name, KinetoClient::ownPoll()), config);
            return config;
        };
        poll();
        QTRY_COMPARE(panel->processModel()->rowCount(), 1);
        QSignalSpy shown(&window, &MainWindow::documentShown);
        const char* traces[] = {"diff/steps_a.json", "diff/steps_b.json"};
        std::vector<int> tickets;
        for (const char* trace : traces) {
            nextSecond();
            tickets.push_back(panel->trace({int(::getpid()), ""}));
            QVERIFY(tickets.back() != 0);
            writeTraceAsKineto(poll(), trace);
            QTRY_COMPARE_WITH_TIMEOUT(shown.count(), int(tickets.size()), testing::kOpenTimeoutMs);
            const auto& doc = shown.back().front().value<OpenedDocument>();
            QVERIFY2(doc.ok(), doc.error.c_str());
            QCOMPARE(q(doc.path),
                     documentPath(q(ondemand::ticketOutput(*panel->ticket(tickets.back())))));
        }
        QCOMPARE(window.documents()->count(), 2);
        shoot(window, QStringLiteral("live-jobs-window"));
        panel->selectTraces(tickets);
        QTest::mouseClick(panel->diffButton(), Qt::LeftButton);
        QCOMPARE(window.currentView(), views::findView("diff"));
        auto* diff = window.page<TraceDiffView>("diff");
        QVERIFY2(diff->diff().has_value(), qPrintable(diff->messageText()));
        shoot(window, QStringLiteral("live-jobs-diff"));
    }

    void saysWhoHoldsATakenSocket() {
        const std::string name = testing::daemonTestName("taken");
        auto holder = ondemand::OnDemandDaemon::start(ondemand::defaultDaemonSettings(), name, "");
        QVERIFY(holder.daemon);
        QTemporaryDir dir;
        AppSettings settings(dir.filePath(QStringLiteral("settings.ini")));
        LiveJobsPanel panel(settings);
        panel.setSocketName(q(name));
        panel.resize(760, 500);
        panel.show();
        QVERIFY(!panel.daemonRunning());
        const QString status = panel.statusText();
        QVERIFY2(status.contains(QStringLiteral("@%1 is taken by").arg(q(name))),
                 qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("(pid %1").arg(::getpid())), qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("close its Live jobs panel")), qPrintable(status));
        QVERIFY(panel.retryButton()->isVisible());
        shoot(panel, QStringLiteral("live-jobs-taken"));
        QCOMPARE(panel.trace({int(::getpid()), ""}), 0);
        QVERIFY(panel.noticeText().contains(QStringLiteral("is taken by")));

        QTest::mouseClick(panel.retryButton(), Qt::LeftButton);
        QVERIFY(!panel.daemonRunning()); // still held
        holder.daemon.reset();
        QTest::mouseClick(panel.retryButton(), Qt::LeftButton);
        QVERIFY2(panel.daemonRunning(), qPrintable(panel.statusText()));
        QVERIFY(!panel.retryButton()->isVisible());
        QVERIFY(panel.statusText().startsWith(QStringLiteral("Answering")));
        // dynolog's holder gets its own advice (the pid is not looked at).
        QVERIFY(q(socketTakenAdvice("dynolog", 0)).contains(QStringLiteral("trace-job PID")));
    }

    // --live-jobs waits for the jobs to poll before the screenshot;
    // --trace-steps traces the first job and waits for its trace to open.
    // The socket is a file in a folder of the test's (KINETO_IPC_SOCKET_DIR,
    // as libkineto reads it), never the machine's @dynolog.
    void commandLineShowsThePanelAndTraces() {
        QTemporaryDir dir;
        qputenv("KINETO_IPC_SOCKET_DIR", dir.path().toLocal8Bit());
        const QString png = dir.filePath(QStringLiteral("live.png"));
        const QStringList common = {"trainscope", "--settings",         dir.filePath("s.ini"),
                                    "--runs-dir", dir.filePath("runs"), "--size",
                                    "1200x800"};
        QCOMPARE(runApplication(common + QStringList{"--trace-steps", "2", "--quit-when-done"}), 2);
        // libkineto's client, polling every 200 ms, writing the trace it is asked for.
        std::atomic<bool> stop{false};
        std::thread kineto([&] {
            KinetoClient client(testing::daemonTestName("cli-client"), dir.path().toStdString());
            while (!stop) {
                std::string config;
                if (ondemand::decodeConfigReply(client.ask("dynolog", KinetoClient::ownPoll()),
                                                config) &&
                    !config.empty())
                    writeTraceAsKineto(config, "diff/steps_a.json");
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
            }
        });
        const int code = runApplication(common + QStringList{"--live-jobs", "--trace-steps", "2",
                                                             "--view", "timeline", "--screenshot",
                                                             png, "--quit-when-done"});
        stop = true;
        kineto.join();
        qunsetenv("KINETO_IPC_SOCKET_DIR");
        QCOMPARE(code, 0);
        QCOMPARE(QImage(png).size(), QSize(1200, 800));
        QVERIFY(!QDir(dir.filePath("runs/traces")).entryList({"*.pt.trace.json"}).isEmpty());
    }
};

TRAINSCOPE_WIDGET_TEST(test_live_jobs, LiveJobsTest)
#include "test_live_jobs.moc"
