#include "shell/LaunchOptions.h"

#include <QCommandLineParser>
#include <QRegularExpression>

#include "shell/ViewRegistry.h"

namespace ts::gui {
namespace {

std::optional<QSize> parseSize(const QString& text) {
    static const QRegularExpression pattern(QStringLiteral("^(\\d+)x(\\d+)$"));
    const auto match = pattern.match(text.trimmed());
    if (!match.hasMatch()) return std::nullopt;
    const QSize size(match.captured(1).toInt(), match.captured(2).toInt());
    if (size.width() < 320 || size.height() < 240) return std::nullopt;
    return size;
}

} // namespace

std::optional<LaunchOptions> parseLaunchOptions(const QStringList& arguments, QString* error,
                                                QString* helpText) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QObject::tr("Trainscope: configure, run and profile neural-network training."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const QCommandLineOption preset({QStringLiteral("p"), QStringLiteral("preset")},
                                    QObject::tr("Load the experiment preset NAME."),
                                    QStringLiteral("NAME"));
    const QCommandLineOption config({QStringLiteral("c"), QStringLiteral("config")},
                                    QObject::tr("Load the experiment from a JSON file."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption set(QStringLiteral("set"),
                                 QObject::tr("Override one setting (repeatable)."),
                                 QStringLiteral("KEY=VALUE"));
    const QCommandLineOption run(QStringLiteral("run"),
                                 QObject::tr("Start the experiment right away."));
    const QCommandLineOption open(
        QStringLiteral("open"), QObject::tr("Open a run directory or a Chrome trace (repeatable)."),
        QStringLiteral("PATH"));
    const QCommandLineOption view(QStringLiteral("view"),
                                  QObject::tr("Tab to show: %1.").arg(viewNameList()),
                                  QStringLiteral("VIEW"));
    const QCommandLineOption find(
        QStringLiteral("find"),
        QObject::tr("Timeline: select the first event whose name contains TEXT and zoom to it "
                    "and the device work it launched."),
        QStringLiteral("TEXT"));
    const QCommandLineOption critical_path(
        QStringLiteral("critical-path"),
        QObject::tr("Timeline: draw the critical path of the first step and dim what is off it."));
    const QCommandLineOption area(
        QStringLiteral("area"),
        QObject::tr("Timeline, with --find: select the found event's time range on every lane "
                    "as an area and summarize it (as M does)."));
    const QCommandLineOption query(QStringLiteral("query"),
                                   QObject::tr("Query tab: run this SQL on the opened trace."),
                                   QStringLiteral("SQL"));
    const QCommandLineOption step(
        QStringLiteral("step"),
        QObject::tr("Pick step N (ProfilerStep#N) of the opened trace for every view: the "
                    "Operators and Kernels of that step, the Timeline zoomed there."),
        QStringLiteral("N"));
    const QCommandLineOption compare_with(
        QStringLiteral("compare-with"),
        QObject::tr("Compare the shown document with this one (also --open it): the Kernels and "
                    "the diagnoses' tables show B − A."),
        QStringLiteral("PATH"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QObject::tr("Save a PNG of the window when done."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption quit(QStringLiteral("quit-when-done"),
                                  QObject::tr("Exit when the run or the opening is done."));
    const QCommandLineOption runs(QStringLiteral("runs-dir"),
                                  QObject::tr("Where new runs are written."),
                                  QStringLiteral("DIR"));
    const QCommandLineOption theme(QStringLiteral("theme"), QObject::tr("system, light or dark."),
                                   QStringLiteral("THEME"));
    const QCommandLineOption settings(QStringLiteral("settings"),
                                      QObject::tr("Use this settings file (ini)."),
                                      QStringLiteral("FILE"));
    const QCommandLineOption size(
        QStringLiteral("size"), QObject::tr("Window size, e.g. 1400x900."), QStringLiteral("WxH"));
    const QCommandLineOption no_checkpoints(
        QStringLiteral("no-checkpoints"),
        QObject::tr("Do not write model checkpoints into the run."));
    const QCommandLineOption processes(
        QStringLiteral("processes"),
        QObject::tr("Train as a data-parallel job of N local processes (1 to 64)."),
        QStringLiteral("N"));
    const QCommandLineOption timings(
        QStringLiteral("timings"),
        QObject::tr("Print to stderr when each opened trace was read, analysed and shown, and "
                    "when the Timeline first drew it."));
    const QCommandLineOption live_jobs(
        QStringLiteral("live-jobs"),
        QObject::tr("Show the Live jobs panel: answer the PyTorch jobs started with "
                    "KINETO_USE_DAEMON=1 (a screenshot waits until they polled once)."));
    const QCommandLineOption trace_steps(
        QStringLiteral("trace-steps"),
        QObject::tr("With --live-jobs: trace the next N steps of the first job that polls, "
                    "open its trace, then take the screenshot."),
        QStringLiteral("N"));
    const QCommandLineOption script(
        QStringLiteral("script"),
        QObject::tr("Profile your own PyTorch script: the form's Python script kind with this "
                    "script (its folder the working folder); --run starts it."),
        QStringLiteral("FILE"));
    const QCommandLineOption python(
        QStringLiteral("python"),
        QObject::tr("With --script: the Python interpreter to run it with (it needs torch)."),
        QStringLiteral("PY"));
    const QCommandLineOption script_args(
        QStringLiteral("script-args"),
        QObject::tr("With --script: the script's arguments, in one quoted string."),
        QStringLiteral("ARGS"));
    parser.addPositionalArgument(QStringLiteral("path"),
                                 QObject::tr("Run directories or traces to open."),
                                 QStringLiteral("[PATH...]"));
    parser.addOptions(
        {preset,    config,        set,          run,       open,        view,
         find,      critical_path, area,         query,     step,        screenshot,
         quit,      runs,          theme,        settings,  size,        no_checkpoints,
         processes, timings,       compare_with, live_jobs, trace_steps, script,
         python,    script_args});

    if (!parser.parse(arguments)) {
        *error = parser.errorText() + QLatin1Char('.');
        return std::nullopt;
    }
    if (parser.isSet(help) || parser.isSet(version)) {
        *helpText = parser.isSet(help)
                        ? parser.helpText()
                        : QStringLiteral("trainscope %1\n").arg(QStringLiteral(TRAINSCOPE_VERSION));
        return std::nullopt;
    }
    LaunchOptions o;
    o.preset = parser.value(preset);
    o.config_file = parser.value(config);
    o.overrides = parser.values(set);
    o.run = parser.isSet(run);
    // `trainscope PATH...` (file managers, the .desktop entry) means --open for each.
    o.open = parser.values(open) + parser.positionalArguments();
    o.view = parser.value(view);
    o.find = parser.value(find);
    o.critical_path = parser.isSet(critical_path);
    o.area = parser.isSet(area);
    o.query = parser.value(query);
    o.compare_with = parser.value(compare_with);
    if (parser.isSet(step)) {
        bool ok = false;
        o.step = parser.value(step).toLongLong(&ok);
        if (!ok || o.step < 0) {
            *error = QObject::tr("--step '%1' is not a step number (0 or more).")
                         .arg(parser.value(step));
            return std::nullopt;
        }
    }
    o.screenshot = parser.value(screenshot);
    o.quit_when_done = parser.isSet(quit);
    o.runs_dir = parser.value(runs);
    o.theme = parser.value(theme);
    o.settings_file = parser.value(settings);
    o.no_checkpoints = parser.isSet(no_checkpoints);
    o.timings = parser.isSet(timings);
    if (parser.isSet(processes)) {
        bool ok = false;
        o.processes = parser.value(processes).toInt(&ok);
        if (!ok || o.processes < 1 || o.processes > 64) {
            *error = QObject::tr("--processes '%1' is not a number of processes from 1 to 64.")
                         .arg(parser.value(processes));
            return std::nullopt;
        }
    }
    o.live_jobs = parser.isSet(live_jobs);
    if (parser.isSet(trace_steps)) {
        bool ok = false;
        o.trace_steps = parser.value(trace_steps).toInt(&ok);
        if (!ok || o.trace_steps < 1 || o.trace_steps > 1000 || !o.live_jobs) {
            *error = QObject::tr("--trace-steps '%1' is not a number of steps from 1 to 1000 "
                                 "given with --live-jobs.")
                         .arg(parser.value(trace_steps));
            return std::nullopt;
        }
    }
    o.script = parser.value(script);
    o.python = parser.value(python);
    if (parser.isSet(script_args)) o.script_args = parser.value(script_args);
    if (o.script.isEmpty() && (parser.isSet(python) || parser.isSet(script_args))) {
        *error = QObject::tr("--%1 goes with --script FILE.")
                     .arg(parser.isSet(python) ? QStringLiteral("python")
                                               : QStringLiteral("script-args"));
        return std::nullopt;
    }
    if (!o.view.isEmpty() && !findViewPage(o.view)) {
        *error = QObject::tr("--view '%1' is not one of %2.").arg(o.view, viewNameList());
        return std::nullopt;
    }
    if (!o.theme.isEmpty() && !QStringList{"system", "light", "dark"}.contains(o.theme.toLower())) {
        *error = QObject::tr("--theme '%1' is not one of system, light, dark.").arg(o.theme);
        return std::nullopt;
    }
    if (parser.isSet(size)) {
        const auto parsed = parseSize(parser.value(size));
        if (!parsed) {
            *error = QObject::tr("--size '%1' is not WIDTHxHEIGHT of at least 320x240.")
                         .arg(parser.value(size));
            return std::nullopt;
        }
        o.size = *parsed;
    }
    return o;
}

std::optional<QString> helpOrVersionText(const QStringList& arguments) {
    QString error, help;
    if (parseLaunchOptions(arguments, &error, &help) || help.isEmpty()) return std::nullopt;
    return help;
}

} // namespace ts::gui
