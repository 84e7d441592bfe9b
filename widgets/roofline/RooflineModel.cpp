#include "roofline/RooflineModel.h"

#include <cmath>

#include "common/Format.h"

namespace ts::gui {
namespace {

using C = TableColumn<RooflinePoint>;

QString gflops(double value) {
    return std::isfinite(value) ? format::number(value, 4) : QStringLiteral("–");
}

} // namespace

QString boundText(Bound bound) {
    return bound == Bound::Memory ? QObject::tr("memory-bound") : QObject::tr("compute-bound");
}

RooflineModel::RooflineModel(QObject* parent)
    : TableModel<RooflinePoint>(
          {
              C{tr("Name"),
                tr("Operator or kernel"),
                [](const RooflinePoint& p) {
                    return QVariant(QString::fromStdString(p.cost.name));
                },
                {},
                false},
              C{tr("Calls"), tr("Calls or kernel launches"),
                [](const RooflinePoint& p) { return QVariant(qint64(p.cost.calls)); }},
              C{tr("Time"), tr("Self time (device time when there is any)"),
                [](const RooflinePoint& p) { return QVariant(p.cost.time_ns); },
                [](const RooflinePoint& p) { return format::duration(p.cost.time_ns / 1e6); }},
              C{tr("Time %"), tr("Share of the time of all placed operators"),
                [](const RooflinePoint& p) { return QVariant(p.time_share); },
                [](const RooflinePoint& p) { return format::percent(p.time_share); }},
              C{tr("FLOPs"), tr("Floating point operations (2 per multiply-add)"),
                [](const RooflinePoint& p) { return QVariant(p.cost.flops); },
                [](const RooflinePoint& p) { return format::flops(p.cost.flops); }},
              C{tr("Bytes"), tr("Bytes moved to and from memory (estimate)"),
                [](const RooflinePoint& p) { return QVariant(p.cost.bytes); },
                [](const RooflinePoint& p) { return format::bytes(p.cost.bytes); }},
              C{tr("FLOP/byte"), tr("Arithmetic intensity"),
                [](const RooflinePoint& p) { return QVariant(p.intensity); },
                [](const RooflinePoint& p) { return format::number(p.intensity, 3); }},
              C{tr("GFLOP/s"), tr("Achieved: FLOPs over time"),
                [](const RooflinePoint& p) { return QVariant(p.achieved_gflops); },
                [](const RooflinePoint& p) { return gflops(p.achieved_gflops); }},
              C{tr("Roof"), tr("Attainable GFLOP/s at this intensity"),
                [](const RooflinePoint& p) { return QVariant(p.roof_gflops); },
                [](const RooflinePoint& p) {
                    return gflops(p.roof_gflops) +
                           (p.cost.low_precision ? tr(" (low prec.)") : QString());
                }},
              C{tr("Of roof"), tr("Achieved over attainable"),
                [](const RooflinePoint& p) { return QVariant(p.efficiency); },
                [](const RooflinePoint& p) { return format::percent(p.efficiency); }},
              C{tr("Bound"),
                tr("Left of the ridge point: memory-bound; right: compute-bound"),
                [](const RooflinePoint& p) { return QVariant(boundText(p.bound)); },
                {},
                false},
          },
          parent) {}

void RooflineModel::setRoofline(const Roofline& roofline) {
    setRows(roofline.points);
}

} // namespace ts::gui
