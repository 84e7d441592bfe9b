#pragma once
// The window's views in two rows of tabs: the groups of the view catalog
// (Summary, Time, GPU, Memory, Ranks, Compare, Experiments) and, under a
// group with more than one view offered, its views. Views that do not apply
// to the open document are not offered (a trace without ranks has no
// Distributed view); a group with none is hidden. Twenty views fit at
// 1440x900 where twelve flat tabs already overflowed. A view is its catalog
// entry (report/ViewCatalog.h).
#include <map>
#include <vector>

#include <QTabWidget>

#include "report/ViewCatalog.h"

namespace ts::gui {

using ViewId = const views::ViewInfo*;

class ViewTabs : public QTabWidget {
    Q_OBJECT
public:
    explicit ViewTabs(QWidget* parent = nullptr);

    // Adds `widget` under its group's tab, after the views added before.
    void addView(ViewId view, QWidget* widget);
    QWidget* widget(ViewId view) const;

    // Makes `view` current, offering it if it was not.
    void showView(ViewId view);
    ViewId currentView() const; // null: none added
    void setOffered(ViewId view, bool offered);
    bool offered(ViewId view) const;

signals:
    void currentViewChanged(const ts::views::ViewInfo* view);

private:
    struct Entry {
        ViewId view;
        QWidget* widget;
    };
    const Entry& entry(ViewId view) const;
    QTabWidget* groupTabs(views::Group group);
    // Shows a group only when it offers a view, its row only for two or more.
    void updateGroup(views::Group group);

    std::vector<Entry> entries_;
    std::map<views::Group, QTabWidget*> groups_;
};

} // namespace ts::gui
