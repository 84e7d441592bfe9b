#pragma once
// Everything main() does, callable from tests: parse options, set up theme and
// settings, build the window, run the automation if asked.
#include <QStringList>

namespace ts::gui {

// Registers resources and application metadata; call once after QApplication.
void initApplication();
// Returns the process exit code.
int runApplication(const QStringList& arguments);

} // namespace ts::gui
