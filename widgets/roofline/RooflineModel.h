#pragma once
// The roofline table: one row per placed operator or kernel (ts::RooflinePoint),
// numbers raw on SortRole.
#include "analysis/Roofline.h"
#include "common/TableModel.h"

namespace ts::gui {

class RooflineModel : public TableModel<RooflinePoint> {
public:
    enum Column {
        Name,
        Calls,
        Time,
        TimeShare,
        Flops,
        Bytes,
        Intensity,
        Achieved,
        Roof,
        Efficiency,
        Bound,
        ColumnCount
    };
    explicit RooflineModel(QObject* parent = nullptr);
    // Rows in the roofline's order (by time, descending); row i is point i.
    void setRoofline(const Roofline& roofline);
};

// "memory-bound" / "compute-bound".
QString boundText(Bound bound);

} // namespace ts::gui
