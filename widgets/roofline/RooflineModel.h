#pragma once
// The roofline table as the CLI prints it (report/RooflineReport.h's
// rooflineTable): one row per placed operator or kernel (ts::RooflinePoint).
#include "analysis/Roofline.h"
#include "common/SpecRowsModel.h"

namespace ts::gui {

class RooflineModel : public SpecRowsModel<RooflinePoint> {
public:
    explicit RooflineModel(QObject* parent = nullptr);
    // Rows in the roofline's order (by time, descending); row i is point i.
    void setRoofline(const Roofline& roofline);
};

// "memory-bound" / "compute-bound".
QString boundText(Bound bound);

} // namespace ts::gui
