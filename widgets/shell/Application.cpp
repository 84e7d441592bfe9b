#include "shell/Application.h"

#include "backend/TorchBackendLoader.h"
#include "util/BackgroundWrites.h"

#include <cstdio>
#include <memory>

#include <QApplication>
#include <QDir>
#include <QIcon>
#include <QTimer>

#include "common/AppSettings.h"
#include "common/ThemePalette.h"
#include "form/ExperimentForm.h"
#include "form/RunForms.h"
#include "shell/Automation.h"
#include "shell/ExperimentFiles.h"
#include "shell/LaunchOptions.h"
#include "shell/MainWindow.h"
#include "shell/OpenTimings.h"
#include "shell/ScriptFiles.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "training/RunController.h"

// Q_INIT_RESOURCE must be called from the global namespace.
static void initTrainscopeResources() {
    Q_INIT_RESOURCE(trainscope);
}

namespace ts::gui {
namespace {

const QSize kDefaultWindowSize(1440, 900);

std::unique_ptr<AppSettings> makeSettings(const LaunchOptions& options) {
    auto settings = options.settings_file.isEmpty()
                        ? std::make_unique<AppSettings>()
                        : std::make_unique<AppSettings>(options.settings_file);
    if (!options.runs_dir.isEmpty())
        settings->overrideRunsRoot(QDir(options.runs_dir).absolutePath());
    return settings;
}

// --timings: a line when a document is shown, another when the Timeline first
// draws its trace (only when the Timeline is the tab shown).
void printOpenTimings(MainWindow& window) {
    QObject::connect(&window, &MainWindow::documentShown, &window, [](const OpenedDocument& doc) {
        if (doc.trace)
            std::fprintf(
                stderr, "%s\n",
                qPrintable(shownTimingLine(QString::fromStdString(doc.trace_path), doc.times)));
    });
    QObject::connect(window.page<TimelineView>("timeline")->timeline(), &TimelineWidget::traceDrawn,
                     &window, [] { std::fprintf(stderr, "%s\n", qPrintable(drawnTimingLine())); });
}

} // namespace

void initApplication() {
    initTrainscopeResources();
    QCoreApplication::setOrganizationName(QStringLiteral("Trainscope"));
    QCoreApplication::setApplicationName(QStringLiteral("trainscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TRAINSCOPE_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Trainscope"));
    QGuiApplication::setDesktopFileName(QStringLiteral("trainscope"));
    QIcon icon;
    for (int size : {16, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/icons/trainscope-%1.png").arg(size), QSize(size, size));
    QApplication::setWindowIcon(icon);
}

int runApplication(const QStringList& arguments) {
    QString error, help;
    const std::optional<LaunchOptions> options = parseLaunchOptions(arguments, &error, &help);
    if (!options) {
        if (!help.isEmpty()) {
            std::fputs(qPrintable(help), stdout);
            return 0;
        }
        std::fprintf(stderr, "trainscope: %s\n", qPrintable(error));
        return 2;
    }
    std::unique_ptr<AppSettings> settings = makeSettings(*options);
    applyTheme(options->theme.isEmpty() ? settings->theme() : themeFromString(options->theme));

    // Kineto reads its log level once it starts, on the loading thread; set
    // here, before any thread, so that no setenv there races a getenv here.
    if (!qEnvironmentVariableIsSet("KINETO_LOG_LEVEL")) qputenv("KINETO_LOG_LEVEL", "6");
    // The LibTorch module chosen in Settings is tried first when it loads.
    setTorchBackendChoice(settings->torchBackend().toStdString());
    // LibTorch loads after the window is up (probeMachineWhenIdle below):
    // opening a trace never waits for it.
    MainWindow window(*settings, Machine::beforeLibTorch());
    window.resize(kDefaultWindowSize);
    window.restoreSession();
    if (options->size.isValid()) window.resize(options->size);
    if (options->no_checkpoints) window.controller()->setWriteCheckpoints(false);
    if (!applyExperimentSources(*window.form(), options->preset, options->config_file,
                                options->overrides, &error)) {
        std::fprintf(stderr, "trainscope: %s\n", qPrintable(error));
        return 2;
    }
    if (options->processes > 0) window.form()->setProcesses(options->processes);
    // Start starts the kind of run shown: the one the command line sets up.
    if (!options->script.isEmpty())
        applyScriptSources(*window.runForms(), *window.scriptForm(), options->script,
                           options->python, options->script_args);
    else if (!options->preset.isEmpty() || !options->config_file.isEmpty() ||
             !options->overrides.isEmpty() || options->processes > 0)
        window.runForms()->setKind(RunKind::Model);
    if (options->timings) printOpenTimings(window);
    if (options->live_jobs) window.showLiveJobs();

    // Begun before the window is first shown and painted, so that the traces
    // to open are being read meanwhile; nothing of it ends before exec()
    // (the loader and the settle timer report through the event loop).
    std::unique_ptr<Automation> automation;
    if (options->automated()) {
        automation = std::make_unique<Automation>(window, *options);
        QObject::connect(automation.get(), &Automation::finished, qApp, &QCoreApplication::exit);
        automation->begin();
    }
    window.show();
    // After the automation's opens have started, so that a trace is read
    // first. A session that only shows traces, or runs a script (which
    // brings its own torch), and quits never needs it.
    if (!(options->quit_when_done && (!options->run || !options->script.isEmpty())))
        QTimer::singleShot(0, &window, &MainWindow::probeMachineWhenIdle);
    const int code = QApplication::exec();
    waitForBackgroundWrites(); // a trace's index or Overview being kept
    return code;
}

} // namespace ts::gui
