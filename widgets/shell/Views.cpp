#include "shell/Views.h"

namespace ts::gui {

QString viewName(View view) {
    switch (view) {
    case View::Overview:
        return QStringLiteral("overview");
    case View::Kernels:
        return QStringLiteral("kernels");
    case View::Live:
        return QStringLiteral("live");
    case View::Operators:
        return QStringLiteral("operators");
    case View::Timeline:
        return QStringLiteral("timeline");
    case View::Runs:
        return QStringLiteral("runs");
    case View::Experiments:
        return QStringLiteral("experiments");
    case View::Roofline:
        return QStringLiteral("roofline");
    }
    return QStringLiteral("live");
}

std::optional<View> viewFromName(const QString& name) {
    for (View v : {View::Overview, View::Live, View::Operators, View::Kernels, View::Timeline,
                   View::Runs, View::Experiments, View::Roofline})
        if (name.compare(viewName(v), Qt::CaseInsensitive) == 0) return v;
    return std::nullopt;
}

} // namespace ts::gui
