// The GUI under a script that streams 1,000 steps a second (issue #63: "the
// GUI stays fluid with 1,000 steps a second streamed"): the main window with
// the Live view shown, a script run started through RunController with the
// stand-in interpreter (tests/data/script_probe/fake_python.sh) sending N
// steps at RATE a second through the real socket, ProbeRank and LiveBuffer.
// Prints the Live view's time per update (append and replot, one per ~30 Hz
// tick), the event loop's stalls (a 16 ms timer's late firings: what a user
// feels as a frozen window) and how far behind the view ends.
//   bench_script_stream [--steps N] [--rate R]   (default 20,000 at 1,000/s)
#include <algorithm>
#include <cstdio>
#include <vector>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>

#include "TestPaths.h"
#include "common/AppSettings.h"
#include "common/FrameMeter.h"
#include "live/LiveView.h"
#include "shell/Machine.h"
#include "shell/MainWindow.h"
#include "training/RunController.h"

using namespace ts;
using namespace ts::gui;

namespace {

constexpr int kTimerMs = 16; // one frame at 60 Hz

void print(const char* what, const FrameMeter& m) {
    std::printf("%-34s %6d samples  median %7.2f ms  p95 %7.2f ms  max %7.2f ms\n", what, m.count(),
                m.median(), m.p95(), m.max());
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("steps"), QStringLiteral("steps to stream"),
                      QStringLiteral("N"), QStringLiteral("20000")});
    parser.addOption({QStringLiteral("rate"), QStringLiteral("steps a second"), QStringLiteral("R"),
                      QStringLiteral("1000")});
    parser.process(app);
    const int steps = parser.value(QStringLiteral("steps")).toInt();
    const int rate = parser.value(QStringLiteral("rate")).toInt();

    QTemporaryDir work;
    QDir(work.path()).mkpath(QStringLiteral("probe/trainscope_probe"));
    QFile(work.filePath(QStringLiteral("probe/trainscope_probe/__main__.py")))
        .open(QIODevice::WriteOnly);
    qputenv("TRAINSCOPE_PROBE_PATH", work.filePath(QStringLiteral("probe")).toUtf8());
    QFile scenario(work.filePath(QStringLiteral("stream.txt")));
    scenario.open(QIODevice::WriteOnly);
    scenario.write(QStringLiteral(R"({"t":"hello","v":1,"pid":1,"rank":0,"world_size":1,)"
                                  R"("python":"3.11.2","torch":"2.15.0"})"
                                  "\n#steps %1 %2\n"
                                  R"({"t":"bye","steps":%1,"status":"ok","exit_code":0})"
                                  "\n")
                       .arg(steps)
                       .arg(rate)
                       .toUtf8());
    scenario.close();

    AppSettings settings(work.filePath(QStringLiteral("settings.ini")));
    settings.overrideRunsRoot(work.filePath(QStringLiteral("runs")));
    MainWindow window(settings, Machine::beforeLibTorch());
    window.resize(1600, 1000);
    window.show();
    window.showView(QStringLiteral("live"));
    auto* live = window.findChild<LiveView*>();

    FrameMeter stalls;
    QElapsedTimer since_tick;
    QTimer frame_timer;
    frame_timer.setInterval(kTimerMs);
    QObject::connect(&frame_timer, &QTimer::timeout, [&] {
        if (since_tick.isValid())
            stalls.record(std::max(0.0, since_tick.nsecsElapsed() / 1e6 - kTimerMs));
        since_tick.restart();
    });

    scriptrun::ScriptRunOptions options;
    options.python =
        QString::fromUtf8(TRAINSCOPE_TEST_DATA_DIR).toStdString() + "/script_probe/fake_python.sh";
    options.script = scenario.fileName().toStdString();
    QElapsedTimer run_time;
    bool done = false;
    QObject::connect(window.controller(), &RunController::runFinished, [&] {
        done = true;
        app.quit();
    });
    QTimer::singleShot(0, [&] {
        run_time.start();
        frame_timer.start();
        window.controller()->startScript(options);
    });
    app.exec();
    const double seconds = run_time.nsecsElapsed() / 1e9;
    const size_t shown = live ? live->history().steps.size() : 0;
    std::printf("streamed %d steps at %d a second: the run took %.2f s (%.2f s of steps), the "
                "Live view shows %zu steps%s\n",
                steps, rate, seconds, double(steps) / rate, shown, done ? "" : " (not finished)");
    if (live) print("Live view, time per update", live->frameMeter());
    print("event loop, 16 ms timer's lateness", stalls);
    return done && shown == size_t(steps) ? 0 : 1;
}
