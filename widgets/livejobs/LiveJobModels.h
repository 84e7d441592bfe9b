#pragma once
// The Live jobs panel's two tables as the core describes them
// (inspect/LiveJobTables.h): the processes that poll the daemon, and the
// traces asked of them. Both are refreshed a few times a second from the
// daemon's snapshots; while the same rows are listed their cells change in
// place, so the selection stays where the user put it.
#include <vector>

#include "common/SpecRowsModel.h"
#include "ondemand/LiveJobs.h"

namespace ts::gui {

class LiveProcessModel : public SpecRowsModel<ondemand::LiveProcess> {
public:
    explicit LiveProcessModel(QObject* parent = nullptr);
    // The processes now, as the daemon lists them (by job, rank, pid).
    void show(std::vector<ondemand::LiveProcess> processes);
    // The row of `pid`, -1 when it is not listed.
    int rowOf(int pid) const;

protected:
    // The parent's command line beside the command's; the trace folder on the pid.
    QVariant toolTip(int row, int column) const override;
};

class TraceHistoryModel : public SpecRowsModel<ondemand::TraceTicket> {
public:
    explicit TraceHistoryModel(QObject* parent = nullptr);
    // Every trace asked, newest first.
    void show(std::vector<ondemand::TraceTicket> tickets);
    int rowOf(int ticket) const;

protected:
    // Each process on a line of its own, with its whole message.
    QVariant toolTip(int row, int column) const override;
};

} // namespace ts::gui
