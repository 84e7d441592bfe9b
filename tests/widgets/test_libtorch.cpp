// The GUI on whichever LibTorch module it loads (ctest: Debian's 1.13;
// scripts/torch2.sh test: the wheel's 2.x, TRAINSCOPE_TORCH_BACKEND naming
// it): modules found and ordered without loading them, one that does not
// load or was built from other sources passed over with the reason, the
// Settings choice tried first, the form and the status bar following what the
// loaded LibTorch can do, and a profiled run resumed from its checkpoint
// whose trace opens in the Timeline and the Overview.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QRadioButton>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>
#include <optional>

#include "GuiFixture.h"
#include "TestConfigs.h"
#include "WidgetTests.h"
#include "backend/BackendModules.h"
#include "backend/TorchBackendLoader.h"
#include "form/ExperimentForm.h"
#include "gpu/OverviewView.h"
#include "live/LiveView.h"
#include "report/RunDirectory.h"
#include "shell/LibTorchDialog.h"
#include "shell/Machine.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "training/RunController.h"

using namespace ts;
using namespace ts::gui;

namespace {

constexpr int kModuleRunTimeoutMs = 180000;

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

// The module ctest (or torch2.sh) names, for the tests that look for it
// among others: its folder goes on the search path instead.
QString namedModule() {
    return qEnvironmentVariable("TRAINSCOPE_TORCH_BACKEND");
}

// While it lives, the loader searches `folders` and loads again on the next
// call, as a fresh start of the GUI would; then both variables are as before.
class SearchPath {
public:
    explicit SearchPath(const QStringList& folders) {
        qunsetenv("TRAINSCOPE_TORCH_BACKEND");
        qputenv("TRAINSCOPE_TORCH_BACKEND_PATH", folders.join(QLatin1Char(':')).toLocal8Bit());
        registerTorchBackend(nullptr); // forget the earlier load
    }
    ~SearchPath() {
        restore("TRAINSCOPE_TORCH_BACKEND", named_);
        restore("TRAINSCOPE_TORCH_BACKEND_PATH", path_);
        setTorchBackendChoice({});
        registerTorchBackend(nullptr);
    }

private:
    static std::optional<QByteArray> value(const char* name) {
        return qEnvironmentVariableIsSet(name) ? std::optional(qgetenv(name)) : std::nullopt;
    }
    static void restore(const char* name, const std::optional<QByteArray>& was) {
        if (was)
            qputenv(name, *was);
        else
            qunsetenv(name);
    }
    std::optional<QByteArray> named_ = value("TRAINSCOPE_TORCH_BACKEND");
    std::optional<QByteArray> path_ = value("TRAINSCOPE_TORCH_BACKEND_PATH");
};

// A copy of tests/widgets/StaleBackendModule.cpp's module in `dir` as
// LibTorch `version`, with a .json saying so when `interface` is given.
void staleModule(const QTemporaryDir& dir, const char* version, const char* interface) {
    const QString so =
        dir.filePath(QStringLiteral("libtrainscope_torch_backend-%1.so").arg(version));
    QVERIFY(QFile::copy(QString::fromUtf8(TRAINSCOPE_STALE_BACKEND_MODULE), so));
    if (interface)
        writeFile(dir.filePath(QStringLiteral("libtrainscope_torch_backend-%1.json").arg(version)),
                  QStringLiteral(R"({"torch_version": "%1.0", "interface": "%2"})")
                      .arg(version, interface)
                      .toUtf8());
}

TorchFeatures madeUpFeatures(bool kineto, bool fused) {
    TorchFeatures f;
    f.torch_version = "2.15.0";
    f.cuda_version = "13.0";
    f.gpu_problem = "no NVIDIA driver (libcuda.so.1 not found)";
    f.kineto = kineto;
    f.kineto_problem = kineto ? "" : "LibTorch 1.13.0 was built without Kineto";
    f.fused_optimizer = fused;
    f.fused_problem = fused ? "" : "LibTorch 1.13.0 has no fused optimizer kernels";
    f.torchscript_max_format = 10;
    return f;
}

bool itemEnabled(QComboBox* box, const QString& text) {
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    return model && model->item(box->findText(text))->isEnabled();
}

} // namespace

class LibTorchTest : public QObject {
    Q_OBJECT

private slots:
    void modulesAreListedNewestFirstFromTheirDescriptions() {
        QTemporaryDir dir;
        for (const char* version : {"1.13", "2.15", "2.9"})
            writeFile(
                dir.filePath(QStringLiteral("libtrainscope_torch_backend-%1.so").arg(version)),
                "not loaded");
        writeFile(dir.filePath(QStringLiteral("libtrainscope_torch_backend-2.15.json")),
                  R"({"torch_version": "2.15.0", "cuda_version": "13.0", "kineto": true})");
        writeFile(dir.filePath(QStringLiteral("libtrainscope_torch_backend-1.13.json")),
                  R"({"torch_version": "1.13.0", "cuda_version": "", "kineto": false})");
        writeFile(dir.filePath(QStringLiteral("libtrainscope_backend.so")), "not a module");
        const std::vector<BackendModule> modules = findBackendModules({dir.path().toStdString()});
        QCOMPARE(modules.size(), size_t(3));
        QCOMPARE(modules[0].label(), std::string("LibTorch 2.15.0 (CUDA 13.0, Kineto)"));
        // Without its .json, the name says the version and loading says the rest.
        QCOMPARE(modules[1].label(), std::string("LibTorch 2.9"));
        QCOMPARE(modules[2].label(), std::string("LibTorch 1.13.0 (CPU only, no Kineto)"));
        QVERIFY(newerTorch("2.10.0", "2.9.1"));
        QVERIFY(!newerTorch("1.13.0", "2.0"));
    }

    void modulesThatDoNotLoadArePassedOverWithTheirReasons() {
        const QString real = namedModule();
        QVERIFY2(!real.isEmpty(), "TRAINSCOPE_TORCH_BACKEND names the module under test");
        QTemporaryDir dir;
        // Newer than any real one, so tried first: not a library at all, and a
        // module whose .json says it was built from other sources (passed over
        // without loading it).
        writeFile(dir.filePath(QStringLiteral("libtrainscope_torch_backend-99.0.so")), "garbage");
        staleModule(dir, "98.0", "0123456789abcdef");
        SearchPath path({dir.path(), QFileInfo(real).path()});
        const TorchBackendLoad load = torchBackendLoad();
        QCOMPARE(QString::fromStdString(load.module.path.string()),
                 QFileInfo(real).canonicalFilePath());
        QCOMPARE(load.why, std::string("the first of the modules that loaded"));
        QCOMPARE(load.skipped.size(), size_t(2));
        QVERIFY2(load.skipped[0].find("LibTorch 99.0") == 0, load.skipped[0].c_str());
        QVERIFY2(load.skipped[1].find("built from other Trainscope sources") != std::string::npos,
                 load.skipped[1].c_str());
        // The status bar's tooltip lists them.
        const Machine machine = Machine::probe();
        QVERIFY(QString::fromStdString(machine.libTorchDetails())
                    .contains(QStringLiteral("Not loaded: LibTorch 99.0")));
    }

    // Without its .json, a module from other sources is known only once
    // loaded, and then no other LibTorch may follow it: the load ends, saying why.
    void aLoadedModuleFromOtherSourcesEndsTheLoad() {
        QTemporaryDir dir;
        staleModule(dir, "98.0", nullptr);
        SearchPath path({dir.path(), QFileInfo(namedModule()).path()});
        try {
            torchBackendLoad();
            QFAIL("went on past a loaded module from other sources");
        } catch (const std::runtime_error& e) {
            QVERIFY2(std::string(e.what()).find("loaded but was built from other Trainscope "
                                                "sources") != std::string::npos,
                     e.what());
        }
    }

    void theModuleChosenInSettingsIsTriedFirst() {
        const QString real = namedModule();
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("libtrainscope_torch_backend-99.0.so")), "garbage");
        SearchPath path({dir.path(), QFileInfo(real).path()});
        setTorchBackendChoice(real.toStdString());
        const TorchBackendLoad load = torchBackendLoad();
        QCOMPARE(load.why, std::string("chosen in Settings \u25b8 LibTorch"));
        QVERIFY(load.skipped.empty());
    }

    void noModuleAnywhereSaysWhereItLooked() {
        QTemporaryDir dir;
        SearchPath path({dir.path()});
        try {
            torchBackendLoad();
            QFAIL("loaded a module from an empty folder");
        } catch (const std::runtime_error& e) {
            QVERIFY2(std::string(e.what()).find(dir.path().toStdString()) != std::string::npos,
                     e.what());
        }
    }

    // What the module's build wrote beside it agrees with what the loaded
    // LibTorch says of itself: the version, CUDA and Kineto (found through
    // libtorch_cpu, which the GUI loads with RTLD_LOCAL).
    void theLoadedLibTorchMatchesItsDescription() {
        registerTorchBackend(nullptr);
        const Machine machine = Machine::probe();
        const BackendModule described = describeBackendModule(namedModule().toStdString());
        QVERIFY(described.described);
        QCOMPARE(machine.features.torch_version, described.torch_version);
        QCOMPARE(machine.features.kineto, described.kineto);
        QCOMPARE(machine.features.cuda_version.empty(), described.cuda_version.empty());
        QVERIFY(machine.features.torchscript_max_format >= 3);
        const QString label = QString::fromStdString(machine.libTorchLabel());
        QVERIFY2(label.startsWith(QStringLiteral("LibTorch %1 (")
                                      .arg(QString::fromStdString(described.torch_version))),
                 qPrintable(label));
        if (described.cuda_version.empty()) QVERIFY(label.endsWith(QStringLiteral("CPU only)")));
        qInfo("%s; %s", qPrintable(label), machine.libTorchDetails().c_str());
    }

    void theStatusBarNamesTheLibTorchAndWhyNoGpu() {
        Machine machine = Machine::beforeLibTorch();
        QVERIFY(machine.libTorchLabel().empty());
        machine.probed = true;
        machine.features = madeUpFeatures(true, true);
        QCOMPARE(machine.libTorchLabel(), std::string("LibTorch 2.15.0 (CUDA 13.0, no GPU found)"));
        machine.features.gpu_problem = "the NVIDIA driver supports CUDA 12.4, older than the CUDA "
                                       "13.0 LibTorch was built with";
        QCOMPARE(machine.libTorchLabel(),
                 std::string("LibTorch 2.15.0 (CUDA 13.0, NVIDIA driver too old)"));
        machine.features.gpus = 2;
        QCOMPARE(machine.libTorchLabel(), std::string("LibTorch 2.15.0 (CUDA 13.0, 2 GPUs)"));
        machine.features.cuda_version.clear();
        QCOMPARE(machine.libTorchLabel(), std::string("LibTorch 2.15.0 (CPU only)"));
    }

    void theFormOffersWhatTheLibTorchCanDo() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(Machine::beforeLibTorch());
        ExperimentForm& form = *window.form();
        ExperimentConfig config = testing::tinyConfig();
        config.profile.enabled = true;
        config.profile.recorder = "kineto";
        form.setConfig(config);
        form.revalidate();
        QVERIFY(form.isValid()); // before LibTorch says otherwise, everything is offered

        form.setFeatures(madeUpFeatures(/*kineto=*/false, /*fused=*/false));
        auto* fused = qobject_cast<QCheckBox*>(form.fieldWidget("fused_optimizer"));
        QVERIFY(!fused->isEnabled());
        QVERIFY(fused->toolTip().contains(QStringLiteral("no fused optimizer kernels")));
        auto* recorder = qobject_cast<QComboBox*>(form.fieldWidget("profile.recorder"));
        QVERIFY(!itemEnabled(recorder, QStringLiteral("kineto")));
        QVERIFY(itemEnabled(recorder, QStringLiteral("trainscope")));
        QCOMPARE(form.issues().size(), size_t(1));
        QCOMPARE(form.issues()[0].key, std::string("profile.recorder"));
        QVERIFY(form.issues()[0].message.find("without Kineto") != std::string::npos);
        QVERIFY(form.fieldWidget("model_path")->toolTip().contains(QStringLiteral("version 10")));

        form.setFeatures(madeUpFeatures(/*kineto=*/true, /*fused=*/true));
        QVERIFY(fused->isEnabled());
        QVERIFY(!fused->toolTip().contains(QStringLiteral("Not offered")));
        QVERIFY(itemEnabled(recorder, QStringLiteral("kineto")));
        QVERIFY(form.isValid());
        // A run ends with the form editable again: still only what is offered.
        form.setFeatures(madeUpFeatures(false, false));
        form.setRunning(true);
        form.setRunning(false);
        QVERIFY(!fused->isEnabled());
    }

    void theSettingsDialogChoosesAModule() {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("libtrainscope_torch_backend-2.15.so")), "");
        writeFile(dir.filePath(QStringLiteral("libtrainscope_torch_backend-2.15.json")),
                  R"({"torch_version": "2.15.0", "cuda_version": "13.2", "kineto": true})");
        writeFile(dir.filePath(QStringLiteral("libtrainscope_torch_backend-1.13.so")), "");
        writeFile(dir.filePath(QStringLiteral("libtrainscope_torch_backend-1.13.json")),
                  R"({"torch_version": "1.13.0", "cuda_version": "", "kineto": false})");
        const auto modules = findBackendModules({dir.path().toStdString()});
        const QString newest = QString::fromStdString(modules[0].path.string());
        const QString older = QString::fromStdString(modules[1].path.string());
        // Without TRAINSCOPE_TORCH_BACKEND, which the dialog would say decides.
        SearchPath unnamed({});
        LibTorchDialog automatic(QString(), modules, older);
        QCOMPARE(automatic.choice(), QString());
        if (const QString shots = qEnvironmentVariable("TRAINSCOPE_SCREENSHOT_DIR");
            !shots.isEmpty()) {
            automatic.resize(640, 360);
            QDir().mkpath(shots);
            QVERIFY(automatic.grab().save(shots + QStringLiteral("/libtorch-settings.png")));
        }
        const QList<QRadioButton*> buttons = automatic.findChildren<QRadioButton*>();
        QCOMPARE(buttons.size(), 3);
        QCOMPARE(buttons[1]->text(), QStringLiteral("LibTorch 2.15.0 (CUDA 13.2, Kineto)"));
        QVERIFY(buttons[2]->text().endsWith(QStringLiteral("no Kineto) \u2014 loaded now")));
        buttons[1]->click();
        QCOMPARE(automatic.choice(), newest);

        // A chosen module no longer there stays listed, chosen.
        const QString gone = dir.filePath(QStringLiteral("libtrainscope_torch_backend-3.0.so"));
        LibTorchDialog chosen(gone, modules, QString());
        QCOMPARE(chosen.choice(), gone);
        chosen.addModule(modules[1]);
        QCOMPARE(chosen.choice(), older);
    }

    // Trained through the loaded module with a profile, stopped at its
    // epoch's checkpoint and resumed: the Live view gets every step, the
    // resumed run goes on from the checkpoint, and the trace (Kineto's where
    // the LibTorch has it) opens in the Timeline and the Overview.
    void aProfiledRunResumesAndItsTraceOpens() {
        registerTorchBackend(nullptr);
        const Machine machine = Machine::probe();
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine);
        ExperimentConfig config = testing::tinyConfig();
        config.max_steps = 4;
        config.val_max_steps = 1;
        config.profile.enabled = true;
        config.profile.wait = 0;
        config.profile.warmup = 1;
        config.profile.active = 2;
        window.form()->setConfig(config);
        QSignalSpy finished(window.controller(), &RunController::runFinished);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kModuleRunTimeoutMs);
        const auto first = finished.at(0).at(0).value<RunOutcome>();
        QCOMPARE(first.summary.status, RunStatus::Completed);
        QCOMPARE(window.page<LiveView>("live")->history().steps.size(), size_t(4));

        config.epochs = 2;
        config.resume = first.runDir.toStdString();
        window.form()->setConfig(config);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 2, kModuleRunTimeoutMs);
        const auto resumed = finished.at(1).at(0).value<RunOutcome>();
        QCOMPARE(resumed.summary.status, RunStatus::Completed);
        // Its own epoch, the second: it went on from the first's checkpoint.
        QCOMPARE(resumed.summary.epochs_completed, 1);
        const RunRecord record = loadRun(resumed.runDir.toStdString());
        QVERIFY(!record.steps.empty());
        QCOMPARE(record.steps.back().global_step, int64_t(7)); // epoch 2 after epoch 1's 4 steps
        QCOMPARE(record.info.env.torch_version, machine.features.torch_version);

        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(first.runDir);
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1, testing::kOpenTimeoutMs);
        const auto doc = shown.at(0).at(0).value<OpenedDocument>();
        QVERIFY2(doc.ok() && doc.trace, doc.trace_error.c_str());
        // "auto" took Kineto where this LibTorch has it (run.json's profile says who recorded).
        const nlohmann::json& profile = loadRun(first.runDir.toStdString()).profile;
        QVERIFY(profile.is_array() && !profile.empty());
        QCOMPARE(profile[0].value("recorder", std::string()),
                 std::string(machine.features.kineto ? "kineto" : "trainscope"));
        QCOMPARE(QString::fromLatin1(window.currentView()->name), QStringLiteral("overview"));
        QVERIFY(!window.page<OverviewView>("overview")->content().steps.empty());
        QVERIFY(!window.page<TimelineView>("timeline")->timeline()->layout().rows().empty());
        qInfo("trace of %zu events recorded by %s", doc.trace->events.size(),
              machine.features.kineto ? "Kineto" : "Trainscope's collector");
    }
};

TRAINSCOPE_WIDGET_TEST(test_libtorch, LibTorchTest)
#include "test_libtorch.moc"
