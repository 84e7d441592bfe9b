#include "livejobs/LiveJobModels.h"

#include <algorithm>

#include "inspect/LiveJobTables.h"

namespace ts::gui {

namespace od = ondemand;

namespace {

// Refreshes `model` in place when it lists the same rows (by `key`), else anew.
template <typename Row, typename Key>
void refresh(SpecRowsModel<Row>& model, std::vector<Row> rows, Key key) {
    const std::vector<Row>& shown = model.rows();
    const bool same = std::equal(rows.begin(), rows.end(), shown.begin(), shown.end(),
                                 [&key](const Row& a, const Row& b) { return key(a) == key(b); });
    if (same)
        model.updateRows(std::move(rows));
    else
        model.setRows(std::move(rows));
}

template <typename Row, typename Key> int findRow(const std::vector<Row>& rows, Key matches) {
    const auto it = std::find_if(rows.begin(), rows.end(), matches);
    return it == rows.end() ? -1 : int(it - rows.begin());
}

QString q(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

LiveProcessModel::LiveProcessModel(QObject* parent)
    : SpecRowsModel<od::LiveProcess>(
          [](const std::vector<od::LiveProcess>& rows) {
              return liveProcessTable(rows, od::Clock::now());
          },
          parent) {}

void LiveProcessModel::show(std::vector<od::LiveProcess> processes) {
    refresh(*this, std::move(processes), [](const od::LiveProcess& p) { return p.pid; });
}

int LiveProcessModel::rowOf(int pid) const {
    return findRow(rows(), [pid](const od::LiveProcess& p) { return p.pid == pid; });
}

QVariant LiveProcessModel::toolTip(int row, int column) const {
    const od::LiveProcess& p = rowAt(row);
    if (column == this->column(live_column::kCommand) && !p.parent_command_line.empty())
        return QObject::tr("%1\n\nstarted by: %2").arg(q(p.command_line), q(p.parent_command_line));
    if (column == this->column(live_column::kPid))
        return QObject::tr("pid %1, polled %2 times; its traces are written in %3 first")
            .arg(p.pid)
            .arg(p.polls)
            .arg(q(p.trace_dir));
    return SpecRowsModel<od::LiveProcess>::toolTip(row, column);
}

TraceHistoryModel::TraceHistoryModel(QObject* parent)
    : SpecRowsModel<od::TraceTicket>(traceTicketTable, parent) {}

void TraceHistoryModel::show(std::vector<od::TraceTicket> tickets) {
    std::reverse(tickets.begin(), tickets.end());
    refresh(*this, std::move(tickets), [](const od::TraceTicket& t) { return t.id; });
}

int TraceHistoryModel::rowOf(int ticket) const {
    return findRow(rows(), [ticket](const od::TraceTicket& t) { return t.id == ticket; });
}

QVariant TraceHistoryModel::toolTip(int row, int column) const {
    const od::TraceTicket& ticket = rowAt(row);
    if (column != this->column(live_column::kProgress) &&
        column != this->column(live_column::kStatus))
        return SpecRowsModel<od::TraceTicket>::toolTip(row, column);
    QStringList lines;
    for (const od::ProcessTrace& t : ticket.processes)
        lines << QObject::tr("pid %1%2: %3")
                     .arg(t.pid)
                     .arg(t.rank >= 0 ? QObject::tr(" (rank %1)").arg(t.rank) : QString())
                     .arg(q(t.message.empty() ? od::tracePhaseName(t.phase) : t.message));
    return lines.join(QLatin1Char('\n'));
}

} // namespace ts::gui
