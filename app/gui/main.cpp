// trainscope: the desktop workbench. All of it lives in trainscope_widgets.
#include <QApplication>

#include "shell/Application.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    ts::gui::initApplication();
    return ts::gui::runApplication(QApplication::arguments());
}
