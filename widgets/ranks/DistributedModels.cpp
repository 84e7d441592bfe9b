#include "ranks/DistributedModels.h"

#include <QCoreApplication>
#include <QStringList>

#include "common/Format.h"

namespace ts::gui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("DistributedModels", text);
}

QString deviceNames(const RankView& rank) {
    QStringList names;
    for (const RankDevice& d : rank.devices)
        names << (d.name.empty()
                      ? QStringLiteral("GPU%1").arg(d.id)
                      : QStringLiteral("GPU%1 %2").arg(d.id).arg(QString::fromStdString(d.name)));
    return names.isEmpty() ? tr("CPU") : names.join(QStringLiteral(", "));
}

template <typename Row>
TableColumn<Row> textColumn(const char* header, const char* tooltip, QString (*get)(const Row&)) {
    return TableColumn<Row>{
        tr(header), tr(tooltip), [get](const Row& r) { return QVariant(get(r)); }, {}, false};
}

// A time column shown in `scale` units (1e6: ms, 1e3: us) from nanoseconds.
template <typename Row, typename Get>
TableColumn<Row> timeColumn(const char* header, const char* tooltip, double scale, Get get) {
    return TableColumn<Row>{tr(header), tr(tooltip),
                            [get, scale](const Row& r) { return QVariant(get(r) / scale); },
                            [get, scale](const Row& r) {
                                const double v = get(r) / scale;
                                return QString::number(v, 'f', v < 100 ? 2 : 1);
                            }};
}

std::vector<TableColumn<RankRow>> rankColumns() {
    using R = RankRow;
    auto ms = [](const char* header, const char* tooltip, auto get) {
        return timeColumn<R>(header, tooltip, 1e6, get);
    };
    return {
        TableColumn<R>{tr("Rank"), tr("From the trace's distributedInfo, else the file name"),
                       [](const R& r) { return QVariant(qint64(r.rank)); },
                       [](const R& r) {
                           return r.straggler ? tr("%1 (straggler)").arg(r.rank)
                                              : QString::number(r.rank);
                       }},
        textColumn<R>("Worker", "The trace file's worker name",
                      [](const R& r) { return r.worker; }),
        textColumn<R>("Node", "The host (the worker name before its last _)",
                      [](const R& r) { return r.node; }),
        textColumn<R>("Process", "The process on the node", [](const R& r) { return r.process; }),
        textColumn<R>("Device", "The GPUs the rank used", [](const R& r) { return r.devices; }),
        textColumn<R>("Library", "The collectives' library", [](const R& r) { return r.library; }),
        ms("Step (ms)", "The step's length on this rank",
           [](const R& r) { return double(r.step.total_ns); }),
        ms("Computation (ms)", "Kernels (host operators without kernels), less the overlap",
           [](const R& r) { return double(r.step.computation_ns); }),
        ms("Overlapping (ms)", "Computation and communication at once",
           [](const R& r) { return double(r.step.overlapping_ns); }),
        ms("Communication (ms)", "Collectives, less the overlap",
           [](const R& r) { return double(r.step.communication_ns); }),
        ms("Other (ms)", "Neither: the host launching, waiting, loading data",
           [](const R& r) { return double(r.step.other_ns); }),
        ms("Data Transfer (ms)", "Collectives' time moving data (as fast as the fastest rank)",
           [](const R& r) { return double(r.step.data_transfer_ns); }),
        ms("Synchronizing (ms)", "Collectives' time waiting for the other ranks",
           [](const R& r) { return double(r.step.synchronizing_ns); }),
        TableColumn<R>{tr("Collectives"), tr("Communication calls in the span"),
                       [](const R& r) { return QVariant(qulonglong(r.collectives)); }},
    };
}

std::vector<TableColumn<CommOpRow>> commOpColumns() {
    using R = CommOpRow;
    auto us = [](const char* header, const char* tooltip, auto get) {
        return timeColumn<R>(header, tooltip, 1e3, get);
    };
    return {
        TableColumn<R>{tr("Name"),
                       tr("The collective"),
                       [](const R& r) { return QVariant(QString::fromStdString(r.name)); },
                       {},
                       false},
        TableColumn<R>{tr("Calls"), tr("Calls in the span"),
                       [](const R& r) { return QVariant(qint64(r.calls)); }},
        TableColumn<R>{tr("Total Size"), tr("Bytes of the inputs, over all calls"),
                       [](const R& r) { return QVariant(qint64(r.total_bytes)); },
                       [](const R& r) { return format::bytes(double(r.total_bytes)); }},
        TableColumn<R>{tr("Avg Size"), tr("Bytes per call"),
                       [](const R& r) { return QVariant(r.avgBytes()); },
                       [](const R& r) { return format::bytes(r.avgBytes()); }},
        us("Total Latency (us)", "From the call to the end of its kernels, merged",
           [](const R& r) { return double(r.total_latency_ns); }),
        us("Avg Latency (us)", "Latency per call", [](const R& r) { return r.avgLatencyNs(); }),
        us("Data Transfer (us)", "Time moving data, merged",
           [](const R& r) { return double(r.total_data_transfer_ns); }),
        us("Avg Data Transfer (us)", "Data transfer per call",
           [](const R& r) { return r.avgDataTransferNs(); }),
    };
}

} // namespace

std::vector<RankRow> rankRows(const DistributedView& view, const std::string& label) {
    std::vector<RankRow> rows;
    for (const RankView& rank : view.ranks) {
        RankRow row;
        row.rank = rank.rank;
        row.worker = QString::fromStdString(rank.worker);
        row.node = QString::fromStdString(rank.node);
        row.process = QString::fromStdString(rank.process);
        row.library = QString::fromStdString(rank.library);
        row.devices = deviceNames(rank);
        row.collectives = rank.collectives;
        row.step.label = label;
        if (label == rank.average.label) row.step = rank.average;
        for (const DistributedStep& step : rank.steps)
            if (step.label == label) row.step = step;
        for (const Straggler& s : view.stragglers)
            row.straggler = row.straggler || s.rank == rank.rank;
        rows.push_back(std::move(row));
    }
    return rows;
}

RankTableModel::RankTableModel(QObject* parent) : TableModel<RankRow>(rankColumns(), parent) {}

CommOpModel::CommOpModel(QObject* parent) : TableModel<CommOpRow>(commOpColumns(), parent) {}

} // namespace ts::gui
