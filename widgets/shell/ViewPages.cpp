// The GUI's view entries (shell/ViewRegistry.h), in the catalog's order:
// every view the catalog offers in the GUI has one, and no other.
#include <map>
#include <stdexcept>

#include <QStringList>

#include "shell/TracePages.h"
#include "shell/ViewRegistry.h"

namespace ts::gui {
namespace {

std::vector<ViewPage> allPages() {
    std::map<std::string, ViewPage> by_name;
    for (std::vector<ViewPage> part : {pages::tracePages(), pages::otherPages()})
        for (ViewPage& p : part)
            by_name.emplace(p.info->name, std::move(p));
    std::vector<ViewPage> list;
    for (const views::ViewInfo& info : views::catalog()) {
        const auto found = by_name.find(info.name);
        if (found != by_name.end()) {
            list.push_back(std::move(found->second));
            by_name.erase(found);
        } else if (info.surfaces & views::Gui) {
            throw std::logic_error(std::string("the view ") + info.name +
                                   " is offered in the GUI but has no page");
        }
    }
    if (!by_name.empty())
        throw std::logic_error("the page " + by_name.begin()->first +
                               " is not a GUI view of the catalog");
    return list;
}

} // namespace

const std::vector<ViewPage>& viewPages() {
    static const std::vector<ViewPage> list = allPages();
    return list;
}

const ViewPage* findViewPage(const QString& name) {
    const views::ViewInfo* info = views::findView(name.toStdString());
    for (const ViewPage& p : viewPages())
        if (p.info == info) return &p;
    return nullptr;
}

QString viewNameList() {
    QStringList names;
    for (const ViewPage& p : viewPages())
        names << QString::fromLatin1(p.info->name);
    return names.join(QStringLiteral(", "));
}

} // namespace ts::gui
