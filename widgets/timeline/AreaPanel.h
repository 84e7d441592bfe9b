#pragma once
// Under the timeline: what lies in the area selected on it (Shift+drag, M on
// an event): the Overview's categories of the range, every name by count,
// total, self, time in the area, mean, min and max, overall and per lane,
// and the memory allocated and freed (report/AreaTables.h). A row picks its
// events, which the timeline shows and the others dim. The summary is made
// off the GUI thread; the categories need the Overview's ranges of the
// trace, made once when the first area is asked for.
#include <memory>
#include <optional>

#include "analysis/AreaSummary.h"
#include "common/SpecTablesView.h"
#include "jobs/OneShot.h"

namespace ts::gui {

class AreaPanel : public SpecTablesView {
    Q_OBJECT
public:
    explicit AreaPanel(AppSettings* settings = nullptr, QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    // Summarizes `area` (the latest one wins while one is being made).
    void showArea(const TraceArea& area);
    const AreaSummary* summary() const { return summary_.get(); }
    bool busy() const { return job_.isRunning(); }

    // The tables, in order (SpecTablesView's indexes).
    enum Table { Categories, Names, Lanes, Memory };

signals:
    // A row of the name or lane table: its events, in store order.
    void eventsPicked(const std::vector<int32_t>& events);
    // A summary is shown (tests, automation).
    void summaryShown();

private:
    struct Result {
        std::shared_ptr<const AreaRoles> roles;
        std::shared_ptr<const AreaSummary> summary;
    };
    void start(const TraceArea& area);
    void done(Result result);
    void pickRow(int table, int row);

    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const AreaRoles> roles_;
    std::shared_ptr<const AreaSummary> summary_;
    std::optional<TraceArea> pending_;
    OneShot<Result> job_;
};

} // namespace ts::gui
