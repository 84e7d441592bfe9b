#pragma once
// Every menu action of the main window with its shortcut, in one place (also
// what Help ▸ Keyboard shortcuts lists).
#include <QList>
#include <QObject>

class QAction;
class QActionGroup;
class QMainWindow;
class QMenu;

namespace ts::gui {

struct AppActions {
    explicit AppActions(QObject* owner);

    QAction* open_run;
    QAction* open_trace;
    QAction* close_document;
    QAction* load_config;
    QAction* save_config;
    QAction* screenshot;
    QAction* quit;
    QAction* start;
    QAction* stop;
    // View ▸ one action per view page, in the catalog's order (the window
    // makes them from the registry; null entries are group separators).
    QList<QAction*> views;
    QAction* toggle_form;
    QAction* toggle_live_jobs;
    QActionGroup* theme;
    QAction* theme_system;
    QAction* theme_light;
    QAction* theme_dark;
    QAction* libtorch; // Settings ▸ LibTorch…
    QAction* shortcuts;
    QAction* about;

    QList<QAction*> all() const;
};

// File, Run, View, Settings and Help menus; `recent` is inserted into File.
void buildMenus(QMainWindow& window, const AppActions& actions, QMenu* recent);

} // namespace ts::gui
