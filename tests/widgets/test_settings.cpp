// Settings persistence, command-line options and number formatting.
#include <QTemporaryDir>
#include <QtTest>

#include "WidgetTests.h"
#include "common/AppSettings.h"
#include "common/Format.h"
#include "common/FrameMeter.h"
#include "shell/LaunchOptions.h"
#include "shell/ViewRegistry.h"

using namespace ts::gui;

class SettingsTest : public QObject {
    Q_OBJECT
private slots:
    void settingsSurviveARestart() {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("trainscope.ini"));
        {
            AppSettings settings(ini);
            settings.setTheme(Theme::Dark);
            settings.setWindowGeometry(QByteArray("geometry"));
            settings.setCurrentView(QStringLiteral("timeline"));
            settings.setRunsRoot(dir.path());
            settings.addRunFolder(dir.path());
            settings.addRunFolder(dir.path()); // once only
            settings.setLastConfigJson(QStringLiteral("{\"name\":\"x\"}"));
            settings.sync();
        }
        AppSettings settings(ini);
        QVERIFY(settings.theme() == Theme::Dark);
        QCOMPARE(settings.windowGeometry(), QByteArray("geometry"));
        QCOMPARE(settings.currentView(), QStringLiteral("timeline"));
        QCOMPARE(settings.runsRoot(), dir.path());
        QCOMPARE(settings.runFolders().size(), 1);
        QCOMPARE(settings.lastConfigJson(), QStringLiteral("{\"name\":\"x\"}"));
        settings.overrideRunsRoot(QStringLiteral("/tmp/elsewhere"));
        QCOMPARE(settings.runsRoot(), QStringLiteral("/tmp/elsewhere"));
        settings.removeRunFolder(dir.path());
        QVERIFY(settings.runFolders().isEmpty());
    }

    void recentFilesAreMostRecentFirstAndCapped() {
        QTemporaryDir dir;
        AppSettings settings(dir.filePath(QStringLiteral("s.ini")));
        for (int i = 0; i < AppSettings::kMaxRecent + 3; ++i)
            settings.addRecentFile(dir.filePath(QStringLiteral("run%1").arg(i)));
        settings.addRecentFile(dir.filePath(QStringLiteral("run5")));
        const QStringList recent = settings.recentFiles();
        QCOMPARE(recent.size(), AppSettings::kMaxRecent);
        QVERIFY(recent.first().endsWith(QStringLiteral("run5")));
        QCOMPARE(recent.count(recent.first()), 1);
        settings.clearRecentFiles();
        QVERIFY(settings.recentFiles().isEmpty());
    }

    void themeNames() {
        QVERIFY(themeFromString(QStringLiteral("DARK")) == Theme::Dark);
        QVERIFY(themeFromString(QStringLiteral("purple")) == Theme::System);
        QCOMPARE(toString(Theme::Light), QStringLiteral("light"));
    }

    void parsesTheDocumentedCommandLine() {
        QString error, help;
        const auto options =
            parseLaunchOptions({"trainscope", "--preset", "quickstart", "--run", "--screenshot",
                                "live.png", "--quit-when-done", "--view", "operators", "--set",
                                "max_steps=6", "--set", "threads=2", "--size", "1400x900"},
                               &error, &help);
        QVERIFY2(options, qPrintable(error));
        QCOMPARE(options->preset, QStringLiteral("quickstart"));
        QVERIFY(options->run && options->quit_when_done && options->automated());
        QCOMPARE(options->screenshot, QStringLiteral("live.png"));
        QCOMPARE(options->view, QStringLiteral("operators"));
        QCOMPARE(options->overrides, (QStringList{"max_steps=6", "threads=2"}));
        QCOMPARE(options->size, QSize(1400, 900));
        const auto positional = parseLaunchOptions({"trainscope", "/tmp/run"}, &error, &help);
        QVERIFY(positional);
        QCOMPARE(positional->open, QStringList{QStringLiteral("/tmp/run")});
        // Several paths: every --open, then the bare paths, in order.
        const auto several = parseLaunchOptions(
            {"trainscope", "--open", "a.json", "--open", "b.json.gz", "run"}, &error, &help);
        QVERIFY2(several, qPrintable(error));
        QCOMPARE(several->open, (QStringList{"a.json", "b.json.gz", "run"}));
        QVERIFY(several->automated());
        QVERIFY(!several->timings);
        const auto timed = parseLaunchOptions({"trainscope", "--timings", "t.json"}, &error, &help);
        QVERIFY2(timed && timed->timings, qPrintable(error));
    }

    void rejectsBadOptionsWithASentence() {
        QString error, help;
        QVERIFY(!parseLaunchOptions({"trainscope", "--view", "charts"}, &error, &help));
        QVERIFY(error.contains(QStringLiteral("--view 'charts'")));
        QVERIFY(!parseLaunchOptions({"trainscope", "--size", "big"}, &error, &help));
        QVERIFY(error.contains(QStringLiteral("--size")));
        QVERIFY(!parseLaunchOptions({"trainscope", "--bogus"}, &error, &help));
        QVERIFY(error.contains(QStringLiteral("bogus")));
        QVERIFY(!parseLaunchOptions({"trainscope", "--help"}, &error, &help));
        QVERIFY(help.contains(QStringLiteral("--quit-when-done")));
    }

    // Every GUI view of the catalog has a page, found by its name in any case.
    void viewNames() {
        QCOMPARE(std::string(findViewPage(QStringLiteral("Timeline"))->info->name),
                 std::string("timeline"));
        QVERIFY(!findViewPage(QStringLiteral("graphs")));
        QVERIFY(!findViewPage(QStringLiteral("area"))); // the CLI's alone
        int gui_views = 0;
        for (const ts::views::ViewInfo& info : ts::views::catalog())
            if (info.surfaces & ts::views::Gui) {
                ++gui_views;
                const ViewPage* page = findViewPage(QString::fromLatin1(info.name));
                QVERIFY2(page && page->info == &info, info.name);
            }
        QCOMPARE(int(viewPages().size()), gui_views);
        QVERIFY(viewNameList().startsWith(QStringLiteral("overview, live, operators")));
    }

    void rooflinePeaksPersist() {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("peaks.ini"));
        {
            AppSettings settings(ini);
            QCOMPARE(settings.rooflinePeaks().fp32_gflops, 0.0);
            settings.setRooflinePeaks({120.5, 240.0, 18.25});
            settings.sync();
        }
        AppSettings again(ini);
        QCOMPARE(again.rooflinePeaks().fp32_gflops, 120.5);
        QCOMPARE(again.rooflinePeaks().low_gflops, 240.0);
        QCOMPARE(again.rooflinePeaks().bandwidth_gbs, 18.25);
    }

    void formatsNumbers() {
        QCOMPARE(format::duration(0.25), QStringLiteral("250 µs"));
        QCOMPARE(format::duration(12.345), QStringLiteral("12.3 ms"));
        QCOMPARE(format::duration(4560), QStringLiteral("4.56 s"));
        QCOMPARE(format::seconds(125), QStringLiteral("2 min 05 s"));
        QCOMPARE(format::seconds(3720), QStringLiteral("1 h 02 min"));
        QCOMPARE(format::bytes(512), QStringLiteral("512 B"));
        QCOMPARE(format::bytes(1536), QStringLiteral("1.50 KiB"));
        QCOMPARE(format::bytes(3.5 * 1024 * 1024 * 1024), QStringLiteral("3.50 GiB"));
        QCOMPARE(format::percent(0.1234), QStringLiteral("12.3 %"));
        QCOMPARE(format::percent(std::numeric_limits<double>::quiet_NaN()), QStringLiteral("–"));
        QCOMPARE(format::flops(2.5e9), QStringLiteral("2.50 GFLOP"));
        QCOMPARE(format::count(12345), QStringLiteral("12.3 k"));
    }

    void frameMeterPercentiles() {
        FrameMeter meter;
        QCOMPARE(meter.median(), 0.0);
        for (int i = 1; i <= 100; ++i)
            meter.record(i);
        QCOMPARE(meter.median(), 50.0);
        QCOMPARE(meter.p95(), 95.0);
        QCOMPARE(meter.max(), 100.0);
    }
};

TRAINSCOPE_WIDGET_TEST(test_settings, SettingsTest)
#include "test_settings.moc"
