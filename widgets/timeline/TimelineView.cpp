#include "timeline/TimelineView.h"

#include <algorithm>

#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

#include "common/DocumentSelection.h"
#include "timeline/AreaPanel.h"
#include "timeline/EventDetails.h"
#include "timeline/TimelineWidget.h"

namespace ts::gui {
namespace {

constexpr int kSearchDelayMs = 200;

QToolButton* toolButton(const QString& text, const QString& tip) {
    auto* button = new QToolButton;
    button->setText(text);
    button->setToolTip(tip);
    return button;
}

} // namespace

TimelineView::TimelineView(AppSettings* settings, QWidget* parent)
    : QWidget(parent), timeline_(new TimelineWidget), area_(new AreaPanel(settings)),
      scroll_(new QScrollBar(Qt::Vertical)), details_(new QTextBrowser),
      search_edit_(new QLineEdit), match_label_(new QLabel), source_(new QLabel) {
    search_edit_->setPlaceholderText(tr("Search events by name (Ctrl+F, Enter = next)"));
    search_edit_->setClearButtonEnabled(true);
    search_edit_->setObjectName(QStringLiteral("timelineSearch"));
    auto* prev = toolButton(QStringLiteral("◀"), tr("Previous match (Shift+Enter)"));
    auto* next = toolButton(QStringLiteral("▶"), tr("Next match (Enter)"));
    auto* fit = toolButton(tr("Fit"), tr("Show the whole trace (0)"));
    auto* path = path_button_ = toolButton(
        tr("Critical path"), tr("Draw the critical path of the first step (GPU ▸ Critical Path) "
                                "and dim what is off it"));
    path->setCheckable(true);
    path->setObjectName(QStringLiteral("criticalPathButton"));
    auto* find = new QShortcut(QKeySequence::Find, this);
    find->setContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QShortcut::activated, this, [this] {
        search_edit_->setFocus();
        search_edit_->selectAll();
    });

    auto* bar = new QHBoxLayout;
    bar->addWidget(search_edit_, 2);
    bar->addWidget(prev);
    bar->addWidget(next);
    bar->addWidget(match_label_);
    bar->addStretch(1);
    bar->addWidget(new QLabel(tr("Wheel/W/S zoom · drag/A/D pan · click selects · Shift+drag "
                                 "or M: area")));
    bar->addWidget(path);
    bar->addWidget(fit);

    auto* track = new QWidget;
    auto* track_layout = new QHBoxLayout(track);
    track_layout->setContentsMargins(0, 0, 0, 0);
    track_layout->setSpacing(0);
    track_layout->addWidget(timeline_, 1);
    track_layout->addWidget(scroll_);
    details_->setOpenLinks(false);
    details_->setMinimumWidth(220);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(track);
    split->addWidget(details_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);

    // The area panel below, shown once an area is selected.
    auto* vertical = vertical_ = new QSplitter(Qt::Vertical);
    vertical->addWidget(split);
    vertical->addWidget(area_);
    vertical->setCollapsible(1, true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(source_);
    layout->addWidget(vertical, 1);

    search_timer_.setSingleShot(true);
    search_timer_.setInterval(kSearchDelayMs);
    connect(&search_timer_, &QTimer::timeout, this, &TimelineView::runSearch);
    connect(search_edit_, &QLineEdit::textChanged, this, [this] { search_timer_.start(); });
    connect(search_edit_, &QLineEdit::returnPressed, this, [this] {
        if (search_timer_.isActive()) runSearch();
        (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier) ? previousMatch() : nextMatch();
    });
    connect(prev, &QToolButton::clicked, this, &TimelineView::previousMatch);
    connect(next, &QToolButton::clicked, this, &TimelineView::nextMatch);
    connect(fit, &QToolButton::clicked, timeline_, &TimelineWidget::fitAll);
    connect(path, &QToolButton::toggled, this, [this, path](bool on) {
        if (timeline_->showCriticalPath(on)) return;
        path->setChecked(false);
        source_->setText(tr("No critical path to draw: this trace has no GPU diagnoses, or its "
                            "first step has no operators."));
    });
    connect(timeline_, &TimelineWidget::eventSelected, this, &TimelineView::showDetails);
    connect(timeline_, &TimelineWidget::areaSelected, this, [this](const TraceArea& area) {
        showAreaPanel(true);
        area_->showArea(area);
    });
    connect(timeline_, &TimelineWidget::areaCleared, this, [this] { showAreaPanel(false); });
    connect(area_, &AreaPanel::eventsPicked, this, [this](const std::vector<int32_t>& events) {
        timeline_->setFocusEvents(events);
        if (!events.empty()) timeline_->selectEvent(events.front(), true);
    });
    connect(timeline_, &TimelineWidget::idleGapSelected, this, &TimelineView::showIdleGap);
    connect(timeline_, &TimelineWidget::scrollRangeChanged, this, [this](int maximum, int page) {
        scroll_->setRange(0, maximum);
        scroll_->setPageStep(page);
        scroll_->setValue(timeline_->scrollY());
    });
    connect(scroll_, &QScrollBar::valueChanged, timeline_, &TimelineWidget::setScrollY);
    connect(details_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        const int32_t event = eventFromLink(url.toString());
        if (event >= 0) timeline_->selectEvent(event, true);
    });
    clear();
}

bool TimelineView::areaShown() const {
    return vertical_->sizes().value(1) > 0;
}

// Collapsed until an area is selected; then three fifths for the timeline
// and the rest for the tables.
void TimelineView::showAreaPanel(bool show) {
    if (show == areaShown()) return;
    const int height = std::max(vertical_->height(), 10);
    vertical_->setSizes({show ? height * 3 / 5 : height, show ? height - height * 3 / 5 : 0});
}

bool TimelineView::showCriticalPath(bool show) {
    path_button_->setChecked(show);
    return timeline_->criticalPathShown() == show;
}

void TimelineView::clear() {
    setTrace(nullptr,
             tr("No trace yet: run with profiling enabled, or open a run or a Chrome trace."));
}

void TimelineView::setTrace(std::shared_ptr<const Trace> trace, const QString& description,
                            std::shared_ptr<const TimelineTracks> tracks) {
    trace_ = std::move(trace);
    search_.clear();
    timeline_->setTrace(trace_, std::move(tracks));
    area_->setTrace(trace_);
    showAreaPanel(false);
    source_->setText(description);
    showDetails(-1);
    if (!search_edit_->text().isEmpty()) runSearch();
    updateMatchLabel();
    if (trace_ && selection_)
        applySelection(selection_->current(), RangeChanged | EventChanged | FocusChanged);
}

void TimelineView::showDocument(const sources::Document& doc, const QString& description) {
    if (const std::shared_ptr<const Trace>& ranks = doc.timeline_trace) {
        setTrace(ranks,
                 tr("%1 one above the other: %2 events on %3 lanes")
                     .arg(QString::fromStdString(ranks->source))
                     .arg(ranks->events.size())
                     .arg(ranks->lanes.size()),
                 doc.tracks);
        return;
    }
    setTrace(doc.trace, description, doc.tracks);
    showDiagnoses(doc);
}

void TimelineView::showDiagnoses(const sources::Document& doc) {
    const std::shared_ptr<const GpuDiagnoses>& diagnoses = doc.analysis->diagnoses;
    if (diagnoses && !doc.timeline_trace && timeline_->diagnoses() != diagnoses.get())
        timeline_->setDiagnoses(diagnoses, doc.trace);
}

bool TimelineView::busy() const {
    return area_->busy();
}

void TimelineView::followSelection(DocumentSelection* selection) {
    selection_ = selection;
    connect(selection, &DocumentSelection::changed, this,
            [this](const Selection& s, unsigned what, const QObject* origin) {
                if (origin != this) applySelection(s, what);
            });
    connect(selection, &DocumentSelection::criticalPathChosen, timeline_,
            &TimelineWidget::setCriticalPath);
    connect(timeline_, &TimelineWidget::areaSelected, this, [this](const TraceArea& area) {
        selection_->selectRange({area.start_ns, area.end_ns, -1}, this);
    });
    connect(timeline_, &TimelineWidget::eventSelected, this, [this](int32_t event) {
        if (event >= 0) selection_->selectEvent(event, this);
    });
}

// Another view's choice: its range or step zoomed to (a lane's span shown
// on it), its event shown, its events picked out. Indices from another
// trace (a run's earlier profiling window) are left alone.
void TimelineView::applySelection(const Selection& s, unsigned what) {
    if (!trace_) return;
    const size_t events = trace_->events.size();
    if (what & RangeChanged) {
        if (!s.range)
            timeline_->fitAll();
        else if (s.range->lane < 0 || !showSpan(s.range->lane, s.range->start_ns, s.range->end_ns))
            timeline_->zoomToRange(s.range->start_ns, s.range->end_ns);
    }
    if ((what & FocusChanged) && std::all_of(s.focus.begin(), s.focus.end(), [events](int32_t e) {
            return e >= 0 && size_t(e) < events;
        })) {
        timeline_->setFocusEvents(s.focus);
        if (!s.focus.empty()) timeline_->selectEvent(s.focus.front(), true);
    }
    if ((what & EventChanged) && s.event >= 0 && size_t(s.event) < events &&
        timeline_->selectedEvent() != s.event) {
        timeline_->selectEvent(s.event, true);
        timeline_->zoomToEvent(s.event);
    }
}

QString TimelineView::detailsHtml() const {
    return details_->toHtml();
}

void TimelineView::setSearchText(const QString& text) {
    search_edit_->setText(text);
    runSearch();
}

void TimelineView::runSearch() {
    search_timer_.stop();
    if (!trace_) return;
    search_.run(*trace_, search_edit_->text().trimmed().toStdString());
    timeline_->setNameMatches(search_.active() ? search_.nameMatches() : std::vector<uint8_t>());
    updateMatchLabel();
}

bool TimelineView::findAndZoom(const QString& text) {
    setSearchText(text);
    if (!trace_ || search_.count() == 0) return false;
    timeline_->fitAll();
    timeline_->selectEvent(-1, false);
    nextMatch();
    timeline_->zoomToEvent(timeline_->selectedEvent());
    return timeline_->selectedEvent() >= 0;
}

bool TimelineView::showSpan(int32_t lane, int64_t start_ns, int64_t end_ns) {
    if (!trace_) return false;
    // Events are sorted by (lane, start, longest first).
    const auto& events = trace_->events;
    auto it = std::lower_bound(events.begin(), events.end(), std::make_pair(lane, start_ns),
                               [](const TraceEvent& e, const std::pair<int32_t, int64_t>& key) {
                                   return std::make_pair(e.lane, e.start_ns) < key;
                               });
    // The first in order is the outermost event starting first inside the span.
    int32_t inside = -1;
    for (; it != events.end() && it->lane == lane && it->start_ns < end_ns; ++it) {
        if (it->end_ns() > end_ns) continue;
        if (inside < 0) inside = int32_t(it - events.begin());
        if (it->start_ns == start_ns && it->end_ns() == end_ns) {
            inside = int32_t(it - events.begin());
            break;
        }
    }
    if (inside < 0) return false;
    timeline_->selectEvent(inside, true);
    timeline_->zoomToRange(start_ns, end_ns);
    return true;
}

void TimelineView::nextMatch() {
    if (!trace_) return;
    const int32_t current = timeline_->selectedEvent();
    const double after = current >= 0 ? double(trace_->events[size_t(current)].start_ns)
                                      : timeline_->viewport().start_ns - 1;
    const int32_t event = search_.next(*trace_, after);
    if (event >= 0) timeline_->selectEvent(event, true);
    updateMatchLabel();
}

void TimelineView::previousMatch() {
    if (!trace_) return;
    const int32_t current = timeline_->selectedEvent();
    const double before = current >= 0 ? double(trace_->events[size_t(current)].start_ns)
                                       : timeline_->viewport().endNs();
    const int32_t event = search_.previous(*trace_, before);
    if (event >= 0) timeline_->selectEvent(event, true);
    updateMatchLabel();
}

void TimelineView::updateMatchLabel() {
    if (!search_.active()) {
        match_label_->clear();
        return;
    }
    const int64_t index = trace_ ? search_.indexOf(*trace_, timeline_->selectedEvent()) : -1;
    const auto count = search_.count();
    match_label_->setText(index >= 0 ? tr("%1 of %2").arg(index + 1).arg(count)
                                     : tr("%1 matches").arg(count));
}

void TimelineView::showIdleGap(int gap) {
    const GpuDiagnoses* diagnoses = timeline_->diagnoses();
    const TimelineTracks* tracks = timeline_->tracks();
    if (!diagnoses) return;
    details_->setHtml(idleGapDetailsHtml(timeline_->layout(), diagnoses->idle, gap,
                                         tracks ? &tracks->launches : nullptr));
}

void TimelineView::showDetails(int32_t event) {
    const TimelineTracks* tracks = timeline_->tracks();
    details_->setHtml(
        eventDetailsHtml(timeline_->layout(), event, tracks ? &tracks->launches : nullptr));
    updateMatchLabel();
}

} // namespace ts::gui
