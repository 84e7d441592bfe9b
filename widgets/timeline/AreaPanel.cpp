#include "timeline/AreaPanel.h"

#include "report/AreaTables.h"

namespace ts::gui {

AreaPanel::AreaPanel(AppSettings* settings, QWidget* parent)
    : SpecTablesView(settings, parent), job_([this](Result r) { done(std::move(r)); }) {
    connect(this, &SpecTablesView::rowActivated, this, &AreaPanel::pickRow);
    clear(tr("Shift+drag across lanes and time on the timeline, or select an event and press M, "
             "to see what lies in that area."));
}

void AreaPanel::setTrace(std::shared_ptr<const Trace> trace) {
    if (trace == trace_) return;
    job_.cancel();
    trace_ = std::move(trace);
    roles_.reset();
    summary_.reset();
    pending_.reset();
    clear(tr("Shift+drag across lanes and time on the timeline, or select an event and press M, "
             "to see what lies in that area."));
}

void AreaPanel::showArea(const TraceArea& area) {
    if (!trace_) return;
    if (job_.isRunning()) {
        pending_ = area; // started when the running one is done
        return;
    }
    start(area);
}

void AreaPanel::start(const TraceArea& area) {
    showPending(roles_ ? tr("Summarizing the area…")
                       : tr("Summarizing the area (the first one also splits the trace into the "
                            "Overview's categories)…"));
    job_.start([trace = trace_, roles = roles_, area](const CancelFlag&) {
        Result r;
        r.roles = roles ? roles : std::make_shared<const AreaRoles>(computeAreaRoles(*trace));
        r.summary = std::make_shared<const AreaSummary>(summarizeArea(*trace, area, r.roles.get()));
        return r;
    });
}

void AreaPanel::done(Result result) {
    if (pending_) {
        if (result.roles) roles_ = result.roles;
        const TraceArea next = *pending_;
        pending_.reset();
        start(next);
        return;
    }
    if (!result.summary || !trace_) return; // failed or cancelled: the job logged it
    roles_ = result.roles;
    summary_ = result.summary;
    const AreaSummary& s = *summary_;
    SpecTables tables;
    tables.notes << QString::fromStdString(areaHeadline(*trace_, s))
                 << tr("Double-click a row to see its events on the timeline (the others dim); "
                       "Esc on the timeline clears the area.");
    tables.tables = {areaCategoryTable(s), areaNameTable(*trace_, s), areaLaneTable(*trace_, s),
                     areaMemoryTable(s)};
    setTables(tables, tr("Area"));
    emit summaryShown();
}

void AreaPanel::pickRow(int table, int row) {
    if (!summary_ || row < 0) return;
    const std::vector<AreaRow>* rows = table == Names   ? &summary_->overall
                                       : table == Lanes ? &summary_->by_lane
                                                        : nullptr;
    if (rows && size_t(row) < rows->size()) emit eventsPicked((*rows)[size_t(row)].events);
}

} // namespace ts::gui
