#include "roofline/RooflineModel.h"

#include "report/RooflineReport.h"

namespace ts::gui {

QString boundText(Bound bound) {
    return QString::fromUtf8(boundLabel(bound));
}

RooflineModel::RooflineModel(QObject* parent)
    : SpecRowsModel<RooflinePoint>(rooflineTable, parent) {}

void RooflineModel::setRoofline(const Roofline& roofline) {
    setRows(roofline.points);
}

} // namespace ts::gui
