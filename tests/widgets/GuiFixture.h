#pragma once
// A main window on throw-away settings and a throw-away runs folder, for the
// tests that drive the whole GUI.
#include <memory>

#include <QTemporaryDir>

#include "common/AppSettings.h"
#include "shell/Machine.h"
#include "shell/MainWindow.h"

namespace ts::testing {

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
