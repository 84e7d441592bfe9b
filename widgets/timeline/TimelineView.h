#pragma once
// The Timeline tab: search bar, the timeline with its vertical scroll bar,
// the details of the selected event, and under them the area panel (what
// lies in an area selected on the timeline).
#include <memory>

#include <QTimer>
#include <QWidget>

#include "analysis/TimelineTracks.h"
#include "sources/Document.h"
#include "timeline/TimelineSearch.h"
#include "trace/Trace.h"

class QLabel;
class QLineEdit;
class QScrollBar;
class QSplitter;
class QTextBrowser;
class QToolButton;

namespace ts::gui {

class AppSettings;
class AreaPanel;
class DocumentSelection;
class TimelineWidget;
struct Selection;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    // `settings`: where the area panel's tables are exported (null: not offered).
    explicit TimelineView(AppSettings* settings = nullptr, QWidget* parent = nullptr);

    // `tracks` of `trace` when already made (null: made here, once per trace).
    void setTrace(std::shared_ptr<const Trace> trace, const QString& description,
                  std::shared_ptr<const TimelineTracks> tracks = nullptr);
    void clear();
    // The document's trace with its tracks and diagnoses; a folder of ranks
    // shows them one above the other.
    void showDocument(const sources::Document& doc, const QString& description);
    // The document's diagnoses, made after it was shown (a large trace's).
    void showDiagnoses(const sources::Document& doc);
    // Follows the shown document's selection: zooms to a range or step
    // picked in another view, shows an event, picks out events, draws a
    // critical path; an area selected here (Shift+drag, M) and an event
    // clicked become the selection.
    void followSelection(DocumentSelection* selection);
    // The area panel is still summing an area (--screenshot waits).
    bool busy() const;
    TimelineWidget* timeline() const { return timeline_; }
    AreaPanel* areaPanel() const { return area_; }
    // Whether the area panel has room (an area is selected).
    bool areaShown() const;
    const TimelineSearch& search() const { return search_; }
    QString detailsHtml() const;

public slots:
    void setSearchText(const QString& text);
    void nextMatch();
    void previousMatch();
    // Searches `text`, selects the first match in time and zooms to it (and
    // to the device work it launched); false when nothing matches.
    bool findAndZoom(const QString& text);
    // Zooms to [start_ns, end_ns) on `lane` (a module call, say) and selects
    // the event spanning exactly that, else the first event inside it; false
    // when the lane has nothing there.
    bool showSpan(int32_t lane, int64_t start_ns, int64_t end_ns);
    // The "Critical path" button: draws the first step's critical path and
    // dims the rest; false when the trace shown has none.
    bool showCriticalPath(bool show);

private:
    void runSearch();
    void showAreaPanel(bool show);
    void showDetails(int32_t event);
    void showIdleGap(int gap);
    void updateMatchLabel();
    void applySelection(const Selection& selection, unsigned what);

    std::shared_ptr<const Trace> trace_;
    DocumentSelection* selection_ = nullptr;
    TimelineWidget* timeline_;
    AreaPanel* area_;
    QSplitter* vertical_; // the timeline above, the area panel below
    QScrollBar* scroll_;
    QTextBrowser* details_;
    QLineEdit* search_edit_;
    QLabel* match_label_;
    QLabel* source_;
    QToolButton* path_button_;
    TimelineSearch search_;
    QTimer search_timer_;
};

} // namespace ts::gui
