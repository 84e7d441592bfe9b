#include "shell/ViewTabs.h"

#include <stdexcept>

#include <QTabBar>

namespace ts::gui {

ViewTabs::ViewTabs(QWidget* parent) : QTabWidget(parent) {
    setDocumentMode(true);
    setObjectName(QStringLiteral("viewGroups"));
    connect(this, &QTabWidget::currentChanged, this,
            [this] { emit currentViewChanged(currentView()); });
}

QTabWidget* ViewTabs::groupTabs(views::Group group) {
    const auto found = groups_.find(group);
    if (found != groups_.end()) return found->second;
    auto* tabs = new QTabWidget;
    tabs->setDocumentMode(true);
    tabs->setObjectName(QStringLiteral("views") + QString::fromLatin1(views::groupTitle(group)));
    connect(tabs, &QTabWidget::currentChanged, this, [this, tabs] {
        if (currentWidget() == tabs) emit currentViewChanged(currentView());
    });
    // Groups keep the catalog's order whatever order their views are added in.
    int index = 0;
    for (const auto& [other, other_tabs] : groups_)
        if (other < group) index = qMax(index, indexOf(other_tabs) + 1);
    insertTab(index, tabs, QString::fromLatin1(views::groupTitle(group)));
    groups_.emplace(group, tabs);
    return tabs;
}

void ViewTabs::addView(ViewId view, QWidget* widget) {
    groupTabs(view->group)->addTab(widget, QString::fromUtf8(view->title));
    entries_.push_back({view, widget});
    updateGroup(view->group);
}

const ViewTabs::Entry& ViewTabs::entry(ViewId view) const {
    for (const Entry& e : entries_)
        if (e.view == view) return e;
    throw std::logic_error("ViewTabs: a view that was not added");
}

QWidget* ViewTabs::widget(ViewId view) const {
    return entry(view).widget;
}

void ViewTabs::showView(ViewId view) {
    const Entry& e = entry(view);
    setOffered(view, true);
    QTabWidget* tabs = groups_.at(view->group);
    tabs->setCurrentWidget(e.widget);
    setCurrentWidget(tabs);
}

ViewId ViewTabs::currentView() const {
    const auto* tabs = qobject_cast<const QTabWidget*>(currentWidget());
    QWidget* shown = tabs ? tabs->currentWidget() : nullptr;
    for (const Entry& e : entries_)
        if (e.widget == shown) return e.view;
    return entries_.empty() ? nullptr : entries_.front().view;
}

void ViewTabs::setOffered(ViewId view, bool offered) {
    const Entry& e = entry(view);
    QTabWidget* tabs = groups_.at(view->group);
    const int index = tabs->indexOf(e.widget);
    if (tabs->isTabVisible(index) == offered) return;
    tabs->setTabVisible(index, offered);
    updateGroup(view->group);
}

bool ViewTabs::offered(ViewId view) const {
    const Entry& e = entry(view);
    const QTabWidget* tabs = groups_.at(view->group);
    return tabs->isTabVisible(tabs->indexOf(e.widget)) && isTabVisible(indexOf(tabs));
}

void ViewTabs::updateGroup(views::Group group) {
    QTabWidget* tabs = groups_.at(group);
    int offered = 0;
    for (int i = 0; i < tabs->count(); ++i)
        offered += tabs->isTabVisible(i) ? 1 : 0;
    tabs->tabBar()->setVisible(offered > 1);
    setTabVisible(indexOf(tabs), offered > 0);
}

} // namespace ts::gui
