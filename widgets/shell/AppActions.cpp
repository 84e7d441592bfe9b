#include "shell/AppActions.h"

#include <QAction>
#include <QActionGroup>
#include <QMainWindow>
#include <QMenuBar>

namespace ts::gui {
namespace {

QAction* make(QObject* owner, const QString& text, const QList<QKeySequence>& keys = {}) {
    auto* action = new QAction(text, owner);
    action->setShortcuts(keys);
    return action;
}

} // namespace

AppActions::AppActions(QObject* owner)
    : open_run(make(owner, QObject::tr("&Open Run or Trace Folder…"), {QKeySequence::Open})),
      open_trace(
          make(owner, QObject::tr("Open &Trace…"), {QKeySequence(QStringLiteral("Ctrl+Shift+O"))})),
      close_document(
          make(owner, QObject::tr("&Close Document"), {QKeySequence(QStringLiteral("Ctrl+W"))})),
      load_config(
          make(owner, QObject::tr("&Load Experiment…"), {QKeySequence(QStringLiteral("Ctrl+L"))})),
      save_config(make(owner, QObject::tr("&Save Experiment…"), {QKeySequence::Save})),
      screenshot(make(owner, QObject::tr("Save Screens&hot…"),
                      {QKeySequence(QStringLiteral("Ctrl+Shift+S"))})),
      quit(make(owner, QObject::tr("&Quit"), {QKeySequence::Quit})),
      start(make(owner, QObject::tr("&Start"),
                 {QKeySequence(Qt::Key_F5), QKeySequence(QStringLiteral("Ctrl+Return"))})),
      stop(
          make(owner, QObject::tr("S&top"),
               {QKeySequence(QStringLiteral("Shift+F5")), QKeySequence(QStringLiteral("Ctrl+."))})),
      toggle_form(
          make(owner, QObject::tr("&Experiment Panel"), {QKeySequence(QStringLiteral("Ctrl+E"))})),
      toggle_live_jobs(
          make(owner, QObject::tr("Live &Jobs"), {QKeySequence(QStringLiteral("Ctrl+J"))})),
      theme(new QActionGroup(owner)), theme_system(make(owner, QObject::tr("&System Colours"))),
      theme_light(make(owner, QObject::tr("&Light"))),
      theme_dark(make(owner, QObject::tr("&Dark"))),
      libtorch(make(owner, QObject::tr("&LibTorch…"))),
      shortcuts(make(owner, QObject::tr("&Keyboard Shortcuts"), {QKeySequence::HelpContents})),
      about(make(owner, QObject::tr("&About Trainscope"))) {
    quit->setMenuRole(QAction::QuitRole);
    about->setMenuRole(QAction::AboutRole);
    toggle_form->setCheckable(true);
    toggle_live_jobs->setCheckable(true);
    toggle_live_jobs->setToolTip(QObject::tr(
        "The PyTorch jobs started with KINETO_USE_DAEMON=1 on this machine: trace their next "
        "steps"));
    for (QAction* a : {theme_system, theme_light, theme_dark}) {
        a->setCheckable(true);
        theme->addAction(a);
    }
    theme_system->setChecked(true);
}

QList<QAction*> AppActions::all() const {
    QList<QAction*> list{open_run,   open_trace, close_document, load_config, save_config,
                         screenshot, quit,       start,          stop};
    for (QAction* view : views)
        if (view) list << view;
    list << toggle_form << toggle_live_jobs << libtorch << shortcuts;
    return list;
}

void buildMenus(QMainWindow& window, const AppActions& a, QMenu* recent) {
    QMenuBar* bar = window.menuBar();
    QMenu* file = bar->addMenu(QObject::tr("&File"));
    file->addActions({a.open_run, a.open_trace});
    file->addMenu(recent);
    file->addAction(a.close_document);
    file->addSeparator();
    file->addActions({a.load_config, a.save_config});
    file->addSeparator();
    file->addAction(a.screenshot);
    file->addSeparator();
    file->addAction(a.quit);
    QMenu* run = bar->addMenu(QObject::tr("&Run"));
    run->addActions({a.start, a.stop});
    QMenu* view = bar->addMenu(QObject::tr("&View"));
    for (QAction* action : a.views) {
        if (action)
            view->addAction(action);
        else
            view->addSeparator();
    }
    view->addSeparator();
    view->addAction(a.toggle_form);
    view->addAction(a.toggle_live_jobs);
    QMenu* theme = view->addMenu(QObject::tr("&Theme"));
    theme->addActions({a.theme_system, a.theme_light, a.theme_dark});
    QMenu* settings = bar->addMenu(QObject::tr("&Settings"));
    settings->addAction(a.libtorch);
    QMenu* help = bar->addMenu(QObject::tr("&Help"));
    help->addActions({a.shortcuts, a.about});
}

} // namespace ts::gui
