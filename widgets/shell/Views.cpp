#include "shell/Views.h"

#include <QStringList>

#include "shell/ViewRegistry.h"

namespace ts::gui {

const std::vector<View>& allViews() {
    static const std::vector<View> views = [] {
        std::vector<View> ids;
        for (const ViewPage& page : viewPages())
            ids.push_back(page.id);
        return ids;
    }();
    return views;
}

QString viewName(View view) {
    return QString::fromLatin1(viewPage(view).info->name);
}

QString viewNameList() {
    QStringList names;
    for (View v : allViews())
        names << viewName(v);
    return names.join(QStringLiteral(", "));
}

std::optional<View> viewFromName(const QString& name) {
    for (View v : allViews())
        if (name.compare(viewName(v), Qt::CaseInsensitive) == 0) return v;
    return std::nullopt;
}

} // namespace ts::gui
