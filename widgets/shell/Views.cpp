#include "shell/Views.h"

#include <QStringList>

namespace ts::gui {

const std::vector<View>& allViews() {
    static const std::vector<View> views{View::Overview, View::Live,        View::Operators,
                                         View::Kernels,  View::Memory,      View::Modules,
                                         View::Timeline, View::Distributed, View::Diff,
                                         View::Runs,     View::Experiments, View::Roofline};
    return views;
}

QString viewName(View view) {
    switch (view) {
    case View::Overview:
        return QStringLiteral("overview");
    case View::Kernels:
        return QStringLiteral("kernels");
    case View::Memory:
        return QStringLiteral("memory");
    case View::Modules:
        return QStringLiteral("modules");
    case View::Live:
        return QStringLiteral("live");
    case View::Operators:
        return QStringLiteral("operators");
    case View::Timeline:
        return QStringLiteral("timeline");
    case View::Distributed:
        return QStringLiteral("distributed");
    case View::Diff:
        return QStringLiteral("diff");
    case View::Runs:
        return QStringLiteral("runs");
    case View::Experiments:
        return QStringLiteral("experiments");
    case View::Roofline:
        return QStringLiteral("roofline");
    }
    return QStringLiteral("live");
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
