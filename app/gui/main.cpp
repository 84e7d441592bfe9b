// trainscope: the desktop workbench. All of it lives in trainscope_widgets.
#include <cstdio>

#include <QApplication>
#include <QCoreApplication>

#include "shell/Application.h"
#include "shell/LaunchOptions.h"

int main(int argc, char** argv) {
    // --help and --version are answered before QApplication exists: it aborts
    // when no display can be opened, and both must work on a headless server.
    // A QCoreApplication needs no display and gives the help text its usage line.
    {
        QCoreApplication probe(argc, argv);
        if (const auto text = ts::gui::helpOrVersionText(QCoreApplication::arguments())) {
            std::fputs(qPrintable(*text), stdout);
            return 0;
        }
    }
    QApplication app(argc, argv);
    ts::gui::initApplication();
    return ts::gui::runApplication(QApplication::arguments());
}
