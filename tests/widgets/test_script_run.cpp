// A user's own script run from the Experiment dock's "Python script" form,
// with the stand-in interpreter (tests/data/script_probe/fake_python.sh)
// playing a probe's scenario: the window never loads LibTorch (it starts
// with Machine::beforeLibTorch and no TorchBackend is asked for). Start
// through the form, the Live view, the console, the run directory; Stop
// keeps the steps; the snapshot is offered on CUDA; an interpreter without
// torch blocks Start; the form's values and kind survive a restart;
// --script and its options.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTemporaryDir>
#include <QtTest>

#include "GuiFixture.h"
#include "ProbeLines.h"
#include "WidgetTests.h"
#include "form/ExperimentForm.h"
#include "form/InterpreterField.h"
#include "form/PathEdit.h"
#include "form/RunForms.h"
#include "form/RunPanel.h"
#include "form/ScriptConsole.h"
#include "form/ScriptForm.h"
#include "live/LiveView.h"
#include "report/RunDirectory.h"
#include "shell/LaunchOptions.h"
#include "shell/ScriptFiles.h"
#include "training/RunController.h"

using namespace ts;
using namespace ts::gui;
using ts::testing::kProbeHello;
using ts::testing::probeSteps;

namespace {

constexpr int kCheckTimeoutMs = 20000; // the stand-in answers at once; a busy VM is slow
constexpr int kRunTimeoutMs = 60000;

QString interpreter(const char* name) {
    return testing::dataFile((std::string("script_probe/") + name).c_str());
}

} // namespace

class ScriptRunTest : public QObject {
    Q_OBJECT
    QTemporaryDir work_;

    // A scenario file (the "script" the stand-in plays).
    QString scenario(const char* name, const std::string& lines) {
        const QString path = work_.filePath(QLatin1String(name) + QStringLiteral(".txt"));
        QFile file(path);
        file.open(QIODevice::WriteOnly);
        file.write(QByteArray::fromStdString(lines));
        return path;
    }

    // Picks the Python script kind and types the script and interpreter in.
    static void fillIn(MainWindow& window, const QString& script, const QString& python) {
        QTest::mouseClick(window.runForms()->kindButton(RunKind::Script), Qt::LeftButton);
        ScriptForm* form = window.scriptForm();
        QTest::keyClicks(form->findChild<PathEdit*>(QStringLiteral("scriptPath"))->lineEdit(),
                         script);
        QLineEdit* python_edit = form->interpreter()->edit()->lineEdit();
        python_edit->clear();
        QTest::keyClicks(python_edit, python);
    }

private slots:
    void initTestCase() {
        QVERIFY(QDir(work_.path()).mkpath(QStringLiteral("probe/trainscope_probe")));
        QFile(work_.filePath(QStringLiteral("probe/trainscope_probe/__main__.py")))
            .open(QIODevice::WriteOnly);
        qputenv("TRAINSCOPE_PROBE_PATH", work_.filePath(QStringLiteral("probe")).toUtf8());
    }
    void cleanupTestCase() { qunsetenv("TRAINSCOPE_PROBE_PATH"); }

    void runsAScriptFromTheForm() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(Machine::beforeLibTorch());
        const QString script =
            scenario("train", std::string(kProbeHello) + "#stdout epoch 1 done\n" + probeSteps(4) +
                                  "#stderr a warning\n" +
                                  R"({"t":"bye","steps":4,"status":"ok","exit_code":0})" + "\n");
        fillIn(window, script, interpreter("fake_python.sh"));
        QVERIFY(window.scriptForm()->isVisible());
        QVERIFY(!window.form()->isVisible());
        QPushButton* start = window.runPanel()->startButton();
        QTRY_VERIFY_WITH_TIMEOUT(start->isEnabled(), kCheckTimeoutMs);
        QCOMPARE(window.scriptForm()->interpreter()->statusText(),
                 QStringLiteral("Python 3.11.2, torch 2.15.0"));
        // The working folder defaults to the script's.
        QCOMPARE(QString::fromStdString(window.scriptForm()->options().cwd), work_.path());

        QSignalSpy finished(window.controller(), &RunController::runFinished);
        QTest::mouseClick(start, Qt::LeftButton);
        QVERIFY(window.controller()->isRunning());
        QVERIFY(!window.runForms()->kindButton(RunKind::Model)->isEnabled());
        QVERIFY(window.scriptForm()->console()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kRunTimeoutMs);

        const auto outcome = finished.at(0).at(0).value<RunOutcome>();
        QCOMPARE(outcome.summary.status, RunStatus::Completed);
        QCOMPARE(outcome.summary.steps_completed, int64_t(4));
        QCOMPARE(window.page<LiveView>("live")->history().steps.size(), size_t(4));
        const QString console = window.scriptForm()->console()->text();
        QVERIFY2(console.contains(QStringLiteral("epoch 1 done")), qPrintable(console));
        QVERIFY2(console.contains(QStringLiteral("a warning")), qPrintable(console));
        QVERIFY(outcome.runDir.startsWith(fx.runsDir()));
        QVERIFY(outcome.runDir.endsWith(QStringLiteral("-train")));
        const RunRecord saved = loadRun(outcome.runDir.toStdString());
        QCOMPARE(saved.summary.status, RunStatus::Completed);
        QCOMPARE(saved.steps.size(), size_t(4));
        QCOMPARE(saved.info.source.script, script.toStdString());
        QVERIFY(window.runForms()->kindButton(RunKind::Model)->isEnabled());
        QVERIFY(!window.scriptForm()->console()->traceButton()->isEnabled());
    }

    void stopKeepsTheStepsMeasured() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(Machine::beforeLibTorch());
        fillIn(window,
               scenario("endless", std::string(kProbeHello) + "#interruptible\n" + probeSteps(3) +
                                       "#sleep 60\n"),
               interpreter("fake_python.sh"));
        QTRY_VERIFY_WITH_TIMEOUT(window.runPanel()->startButton()->isEnabled(), kCheckTimeoutMs);
        QSignalSpy finished(window.controller(), &RunController::runFinished);
        QTest::mouseClick(window.runPanel()->startButton(), Qt::LeftButton);
        // A step is held until the next one comes (its late figures): two are shown.
        QTRY_VERIFY_WITH_TIMEOUT(window.page<LiveView>("live")->history().steps.size() == 2,
                                 kRunTimeoutMs);
        // The probe's requests go out while it runs (the stand-in ignores them).
        QVERIFY(window.scriptForm()->console()->traceButton()->isEnabled());
        QVERIFY(!window.scriptForm()->console()->snapshotButton()->isEnabled()); // on the CPU
        QTest::mouseClick(window.scriptForm()->console()->traceButton(), Qt::LeftButton);
        QElapsedTimer stopping;
        stopping.start();
        QTest::mouseClick(window.runPanel()->stopButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kRunTimeoutMs);

        const auto outcome = finished.at(0).at(0).value<RunOutcome>();
        QCOMPARE(outcome.summary.status, RunStatus::Cancelled);
        QCOMPARE(outcome.summary.steps_completed, int64_t(3));
        QCOMPARE(window.page<LiveView>("live")->history().steps.size(), size_t(3));
        QVERIFY2(stopping.elapsed() < kRunTimeoutMs / 2, "the script ended at Stop, not by itself");
        const RunRecord saved = loadRun(outcome.runDir.toStdString());
        QCOMPARE(saved.summary.status, RunStatus::Cancelled);
        QCOMPARE(saved.steps.size(), size_t(3));
        QCOMPARE(saved.info.source.exit_status, std::string("interrupted"));
    }

    // "Memory snapshot now" is for a script on CUDA, as the probe's device
    // line says at the first optimizer step.
    void theSnapshotIsOfferedOnCuda() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(Machine::beforeLibTorch());
        const std::string device =
            R"({"t":"device","rank":0,"device":"cuda:0","device_name":"NVIDIA H100"})"
            "\n";
        fillIn(window, scenario("cuda", kProbeHello + device + "#interruptible\n#sleep 60\n"),
               interpreter("fake_python.sh"));
        QTRY_VERIFY_WITH_TIMEOUT(window.runPanel()->startButton()->isEnabled(), kCheckTimeoutMs);
        QSignalSpy finished(window.controller(), &RunController::runFinished);
        QTest::mouseClick(window.runPanel()->startButton(), Qt::LeftButton);
        QPushButton* snapshot = window.scriptForm()->console()->snapshotButton();
        QTRY_VERIFY_WITH_TIMEOUT(snapshot->isEnabled(), kRunTimeoutMs);
        QTest::mouseClick(snapshot, Qt::LeftButton); // the stand-in ignores it
        QTest::mouseClick(window.runPanel()->stopButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kRunTimeoutMs);
        QVERIFY(!snapshot->isEnabled());
    }

    void anInterpreterWithoutTorchBlocksStart() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(Machine::beforeLibTorch());
        fillIn(window, scenario("unused", kProbeHello), interpreter("no_torch_python.sh"));
        InterpreterField* python = window.scriptForm()->interpreter();
        QTRY_VERIFY_WITH_TIMEOUT(python->state() == InterpreterField::State::Unusable,
                                 kCheckTimeoutMs);
        QVERIFY2(python->statusText().contains(QStringLiteral("has no torch")),
                 qPrintable(python->statusText()));
        QPushButton* start = window.runPanel()->startButton();
        QVERIFY(!start->isEnabled());
        QVERIFY2(start->toolTip().contains(QStringLiteral("has no torch")),
                 qPrintable(start->toolTip()));
        // Started all the same (F5 before the check, the command line): the
        // refusal is a failed run that says why, and leaves no run directory.
        QSignalSpy finished(window.controller(), &RunController::runFinished);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kRunTimeoutMs);
        const auto outcome = finished.at(0).at(0).value<RunOutcome>();
        QCOMPARE(outcome.summary.status, RunStatus::Failed);
        QVERIFY2(outcome.summary.error.find("has no torch") != std::string::npos,
                 outcome.summary.error.c_str());
        QVERIFY(outcome.runDir.isEmpty());
        QVERIFY(QDir(fx.runsDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty());
    }

    void badOptionsAreFlaggedOnTheirFields() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(Machine::beforeLibTorch());
        fillIn(window, work_.filePath(QStringLiteral("nope.py")), interpreter("fake_python.sh"));
        ScriptForm* form = window.scriptForm();
        form->revalidate();
        QCOMPARE(form->issues().size(), size_t(1));
        auto* script = form->findChild<PathEdit*>(QStringLiteral("scriptPath"));
        QVERIFY(script->property("invalid").toBool());
        QVERIFY(script->toolTip().contains(QStringLiteral("no such script")));
        QVERIFY(window.runPanel()->startButton()->toolTip().contains(QStringLiteral("Fix")));
        QSignalSpy failed(window.controller(), &RunController::startFailed);
        window.startRun();
        QCOMPARE(failed.count(), 1);
        QVERIFY(!window.controller()->isRunning());
    }

    void theFormAndItsKindSurviveARestart() {
        const Machine machine = Machine::beforeLibTorch();
        QTemporaryDir dir;
        AppSettings settings(dir.filePath(QStringLiteral("s.ini")));
        scriptrun::ScriptRunOptions options;
        options.python = "/venv/bin/python";
        options.module = "pkg.train";
        options.args = {"--name", "my run", "say \"hi\""};
        options.env = {"A=1", "B=two words"};
        options.nproc_per_node = 2;
        options.profile.enabled = false;
        options.memory_every = 0;
        options.catch_slow = true;
        {
            // The forms belong to RunForms (its stacked widget's pages).
            auto* form = new ScriptForm;
            RunForms forms(new ExperimentForm(machine.presets, machine.devices, machine.support),
                           form);
            form->setOptions(options);
            forms.setKind(RunKind::Script);
            rememberScript(settings, forms, *form);
        }
        auto* form = new ScriptForm;
        RunForms forms(new ExperimentForm(machine.presets, machine.devices, machine.support), form);
        QCOMPARE(forms.kind(), RunKind::Model);
        restoreScript(settings, forms, *form);
        QCOMPARE(forms.kind(), RunKind::Script);
        const scriptrun::ScriptRunOptions back = form->typedOptions();
        QCOMPARE(back.python, options.python);
        QCOMPARE(back.module, options.module);
        QVERIFY(back.script.empty());
        QCOMPARE(back.args, options.args); // quoted in the field, split back
        QCOMPARE(back.env, options.env);
        QCOMPARE(back.nproc_per_node, 2);
        QVERIFY(!back.profile.enabled);
        QCOMPARE(back.memory_every, 0);
        QVERIFY(back.catch_slow);
    }

    void theCommandLineSetsUpAScript() {
        const Machine machine = Machine::beforeLibTorch();
        QString error, help;
        const auto options = parseLaunchOptions({"trainscope", "--script", "train.py", "--python",
                                                 "/venv/bin/python", "--script-args",
                                                 "--epochs 1 --name \"a b\"", "--run"},
                                                &error, &help);
        QVERIFY2(options, qPrintable(error));
        QCOMPARE(options->script, QStringLiteral("train.py"));
        QCOMPARE(options->python, QStringLiteral("/venv/bin/python"));
        QVERIFY(options->run);

        auto* form = new ScriptForm;
        RunForms forms(new ExperimentForm(machine.presets, machine.devices, machine.support), form);
        applyScriptSources(forms, *form, options->script, options->python, options->script_args);
        QCOMPARE(forms.kind(), RunKind::Script);
        const scriptrun::ScriptRunOptions set = form->typedOptions();
        QCOMPARE(set.script, std::string("train.py"));
        QCOMPARE(set.python, std::string("/venv/bin/python"));
        QCOMPARE(set.args, (std::vector<std::string>{"--epochs", "1", "--name", "a b"}));

        QVERIFY(!parseLaunchOptions({"trainscope", "--python", "py"}, &error, &help));
        QVERIFY2(error.contains(QStringLiteral("--python goes with --script")), qPrintable(error));
        QVERIFY(!parseLaunchOptions({"trainscope", "--help"}, &error, &help));
        QVERIFY(help.contains(QStringLiteral("--script-args")));
    }
};

TRAINSCOPE_WIDGET_TEST(test_script_run, ScriptRunTest)
#include "test_script_run.moc"
