#include "operators/OpTableModel.h"

#include <cmath>

#include "common/Format.h"

namespace ts::gui {
namespace {

QVariant known(double value) {
    return std::isfinite(value) && value > 0 ? QVariant(value) : QVariant();
}

} // namespace

OpTableModel::OpTableModel(QObject* parent) : TableModel<OpStat>(makeColumns(this), parent) {}

void OpTableModel::setTable(OpTable table) {
    total_self_cpu_ns_ = table.total_self_cpu_ns;
    total_self_device_ns_ = table.total_self_device_ns;
    setRows(std::move(table.rows));
}

// The order here is the Column enum's order.
std::vector<TableColumn<OpStat>> OpTableModel::makeColumns(const OpTableModel* m) {
    using C = TableColumn<OpStat>;
    const auto ns = [](int64_t OpStat::*field) {
        return [field](const OpStat& s) { return format::durationNs(s.*field); };
    };
    const auto raw = [](int64_t OpStat::*field) {
        return [field](const OpStat& s) { return QVariant(qint64(s.*field)); };
    };
    const auto mem = [](int64_t OpStat::*field) {
        return [field](const OpStat& s) { return format::bytes(double(s.*field)); };
    };
    std::vector<C> columns = {
        C{tr("Name"),
          tr("Operator or autograd node"),
          [](const OpStat& s) { return QVariant(QString::fromStdString(s.name)); },
          {},
          false},
        C{tr("Input shapes"),
          tr("Shapes of the inputs (when grouped by shape)"),
          [](const OpStat& s) { return QVariant(QString::fromStdString(s.shapes)); },
          {},
          false},
        C{tr("Pass"),
          tr("Forward operator or backward (autograd) work"),
          [](const OpStat& s) { return QVariant(s.backward ? tr("backward") : tr("forward")); },
          {},
          false},
        C{tr("Calls"), tr("Number of calls"), raw(&OpStat::calls)},
        C{tr("Self CPU"), tr("Time in the operator itself, children excluded"),
          raw(&OpStat::self_cpu_ns), ns(&OpStat::self_cpu_ns)},
        C{tr("Self CPU %"), tr("Share of all self CPU time"),
          [m](const OpStat& s) {
              return m->total_self_cpu_ns_ > 0
                         ? QVariant(double(s.self_cpu_ns) / m->total_self_cpu_ns_)
                         : QVariant();
          },
          [m](const OpStat& s) {
              return format::percent(
                  m->total_self_cpu_ns_ > 0 ? double(s.self_cpu_ns) / m->total_self_cpu_ns_ : NAN);
          }},
        C{tr("CPU total"), tr("Time including children"), raw(&OpStat::cpu_total_ns),
          ns(&OpStat::cpu_total_ns)},
        C{tr("CPU avg"), tr("CPU total per call"),
          [](const OpStat& s) { return QVariant(s.avgCpuNs()); },
          [](const OpStat& s) { return format::duration(s.avgCpuNs() / 1e6); }},
        C{tr("Self device"), tr("Device (CUDA) time of the operator itself"),
          raw(&OpStat::self_device_ns), ns(&OpStat::self_device_ns)},
        C{tr("Device total"), tr("Device time including children"), raw(&OpStat::device_total_ns),
          ns(&OpStat::device_total_ns)},
        C{tr("CPU mem"), tr("Bytes allocated inside the operator, children included"),
          raw(&OpStat::cpu_mem_bytes), mem(&OpStat::cpu_mem_bytes)},
        C{tr("Self CPU mem"), tr("Bytes allocated by the operator itself"),
          raw(&OpStat::self_cpu_mem_bytes), mem(&OpStat::self_cpu_mem_bytes)},
        C{tr("FLOPs"), tr("Floating point operations (2 per multiply-add)"),
          [](const OpStat& s) { return known(s.flops); },
          [](const OpStat& s) { return format::flops(s.flops); }},
        C{tr("GFLOP/s"), tr("Achieved rate over self time"),
          [](const OpStat& s) { return known(s.gflopsPerSec()); },
          [](const OpStat& s) {
              return s.gflopsPerSec() > 0 ? format::number(s.gflopsPerSec(), 4)
                                          : QStringLiteral("–");
          }},
        C{tr("FLOP/byte"), tr("Arithmetic intensity (FLOPs per byte moved)"),
          [](const OpStat& s) { return known(s.arithmeticIntensity()); },
          [](const OpStat& s) {
              return s.arithmeticIntensity() > 0 ? format::number(s.arithmeticIntensity(), 3)
                                                 : QStringLiteral("–");
          }},
    };
    return columns;
}

} // namespace ts::gui
