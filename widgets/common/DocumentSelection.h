#pragma once
// What the user picked in one view, for every view of the shown document to
// follow (hotspot's filter-and-zoom stack, handed to every page): a time
// range (a step's span when a step is picked), a rank, an event, events to
// pick out. Each document keeps its own, with the choices before it to go
// back to; the Timeline zooms there, the Operators and Kernels show that
// range, SQL has it bound, the Distributed view shows that step and rank.
// Pages also ask through it for another view by its catalog name, and hand
// the timeline a critical path to draw, so that no page knows another.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <QObject>
#include <QString>

#include "analysis/TimeWindow.h"

namespace ts {
struct CriticalPathReport;
struct Trace;
} // namespace ts

namespace ts::gui {

struct Selection {
    // [start_ns, end_ns) on the trace's clock (ns from its start), nullopt: all.
    struct Range {
        int64_t start_ns = 0, end_ns = 0;
        int32_t lane = -1; // the lane it was picked on (a module's call), -1 any
        bool operator==(const Range& o) const {
            return start_ns == o.start_ns && end_ns == o.end_ns && lane == o.lane;
        }
        bool operator!=(const Range& o) const { return !(*this == o); }
    };
    std::optional<Range> range;
    std::optional<int64_t> step; // the step picked (its number); `range` is its span
    std::optional<int> rank;     // a rank of a folder of ranks
    int32_t event = -1;          // an event of the trace, -1 none
    std::vector<int32_t> focus;  // events to pick out (a query's rows), empty none

    bool empty() const { return !range && !rank && event < 0 && focus.empty(); }
    // "step 12 · 3.200–4.100 ms · rank 3 · aten::mm", "" when empty;
    // `event_name` names the event (null: its number).
    QString label(const std::function<QString(int32_t)>& event_name = {}) const;
};

// The part of the trace a table narrows to: the range picked, or all of it.
TimeWindow windowOf(const Selection& selection);
// "step 12, 3.200–4.100 ms" for a view's header, "" for all of it.
QString windowText(const Selection& selection);

// What changed with the last choice; a view acts on those it follows.
enum SelectionChange : unsigned {
    RangeChanged = 1u,
    RankChanged = 2u,
    EventChanged = 4u,
    FocusChanged = 8u,
};

class DocumentSelection : public QObject {
    Q_OBJECT
public:
    explicit DocumentSelection(QObject* parent = nullptr);

    const Selection& current() const { return current_; }
    bool canGoBack() const;
    // The shown document changed (its key; "" none): its own selection comes
    // back, empty for one not seen before. Pages read current() when they
    // are shown the document; only documentChanged() is emitted.
    void setDocument(const QString& key);
    // The document was closed: its selection is forgotten.
    void forget(const QString& key);
    // What the document of `key` shows first when it is opened (a rank's
    // trace opened at a step from the Distributed view); picked at once
    // when it is the shown document.
    void presetFor(const QString& key, const Selection& selection);

    // Each change is made by `origin` (the page that made it ignores it).
    void selectRange(Selection::Range range, const QObject* origin = nullptr);
    void selectStep(int64_t step, int64_t start_ns, int64_t end_ns,
                    const QObject* origin = nullptr);
    void selectRank(std::optional<int> rank, const QObject* origin = nullptr);
    void selectEvent(int32_t event, const QObject* origin = nullptr);
    void focusEvents(std::vector<int32_t> events, const QObject* origin = nullptr);
    void clearRange(const QObject* origin = nullptr);
    void clear(); // back to the whole document
    void back();  // the choice before the last one

    // A table row about one event: it is picked and the Timeline shown.
    void showEvent(int32_t event, const QObject* origin = nullptr) {
        selectEvent(event, origin);
        requestView(QStringLiteral("timeline"));
    }
    // Calls `apply` with the part of the trace picked (all of it: none) and
    // its text whenever the range or step changes, for as long as `context` lives.
    void followWindow(QObject* context,
                      std::function<void(const TimeWindow&, const QString&)> apply);
    // A page asks for the view of this catalog name ("timeline") to be shown.
    void requestView(const QString& name) { emit viewRequested(name); }
    // A page chose a critical path of `of` (null: none) for the timeline to draw.
    void showCriticalPath(std::shared_ptr<const CriticalPathReport> path,
                          std::shared_ptr<const Trace> of) {
        emit criticalPathChosen(std::move(path), std::move(of));
    }

signals:
    // `what`: the SelectionChange bits; `origin`: who made it (null: the bar).
    void changed(const ts::gui::Selection& selection, unsigned what, const QObject* origin);
    void documentChanged();
    void viewRequested(const QString& name);
    void criticalPathChosen(std::shared_ptr<const ts::CriticalPathReport> path,
                            std::shared_ptr<const ts::Trace> of);

private:
    void apply(Selection next, const QObject* origin);
    static unsigned difference(const Selection& a, const Selection& b);

    struct Kept {
        Selection current;
        std::vector<Selection> before; // the earlier choices, newest last
    };
    QString key_;
    Selection current_;
    std::vector<Selection> before_;
    std::map<QString, Kept> kept_; // the other open documents'
};

} // namespace ts::gui
Q_DECLARE_METATYPE(ts::gui::Selection)
