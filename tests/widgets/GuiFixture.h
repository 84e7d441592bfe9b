#pragma once
// A main window on throw-away settings and a throw-away runs folder, for the
// tests that drive the whole GUI.
#include <memory>

#include <QTemporaryDir>

#include "TestPaths.h"
#include "common/AppSettings.h"
#include "shell/Machine.h"
#include "shell/MainWindow.h"

namespace ts::testing {

// How long a test waits for a document to open (a large trace on a busy 2-core VM).
constexpr int kOpenTimeoutMs = 60000;

// A file of tests/data ("h100/resnet50_bs64_bf16.pt.trace.json.gz").
inline QString dataFile(const char* name) {
    return QString::fromUtf8(TRAINSCOPE_SOURCE_DIR) + QStringLiteral("/tests/data/") +
           QLatin1String(name);
}

struct GuiFixture {
    QTemporaryDir dir;
    gui::AppSettings settings{dir.filePath(QStringLiteral("settings.ini"))};
    std::unique_ptr<gui::MainWindow> window;

    QString runsDir() const { return dir.filePath(QStringLiteral("runs")); }

    gui::MainWindow& open(const gui::Machine& machine) {
        settings.overrideRunsRoot(runsDir());
        window = std::make_unique<gui::MainWindow>(settings, machine);
        window->resize(1440, 900);
        window->show();
        return *window;
    }
};

} // namespace ts::testing
