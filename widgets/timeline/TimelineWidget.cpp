#include "timeline/TimelineWidget.h"

#include <algorithm>
#include <cmath>

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QToolTip>

#include "common/Format.h"
#include "timeline/CriticalPathPainter.h"
#include "timeline/IdleGapPainter.h"
#include "timeline/TrackPainter.h"

namespace ts::gui {
namespace {

constexpr double kWheelZoomPerNotch = 1.25;
constexpr double kKeyZoom = 1.3;
constexpr double kKeyPanFraction = 0.12; // of the visible width
constexpr int kDragThresholdPx = 4;
constexpr double kHitTolerancePx = 3;

} // namespace

TimelineWidget::TimelineWidget(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(400, 200);
    scene_.layout = &layout_;
    updateMetrics();
}

void TimelineWidget::updateMetrics() {
    const QFontMetrics metrics(font());
    layout_.setRowHeight(metrics.height() + 6);
    scene_.ruler_px = metrics.height() * 2 + 6;
    scene_.gutter_px = metrics.horizontalAdvance(QLatin1Char('m')) * 18;
    scene_.view.setWidth(width() - scene_.gutter_px);
}

void TimelineWidget::setTrace(std::shared_ptr<const Trace> trace,
                              std::shared_ptr<const TimelineTracks> tracks) {
    layout_.setTrace(trace);
    tracks_ = tracks && trace ? std::move(tracks) : tracksFor(trace);
    scene_.tracks = tracks_.get();
    layout_.setCounterRows(tracks_ ? int(tracks_->counterRows()) : 0);
    if (trace) painter_.prepare(*trace, palette());
    scene_.selected = scene_.linked = -1;
    scene_.arrows.clear();
    diagnoses_.reset();
    scene_.idle = nullptr;
    scene_.critical_path = nullptr;
    scene_.on_path = nullptr;
    on_path_.clear();
    path_.reset();
    scene_.values = nullptr;
    scene_.scroll_y = 0;
    name_matches_.clear();
    scene_.name_matches = nullptr;
    area_.reset();
    scene_.area = nullptr;
    focus_.clear();
    scene_.focus = nullptr;
    scene_.view.setBounds(double(layout_.startNs()), double(layout_.endNs()));
    scene_.view.setWidth(width() - scene_.gutter_px);
    scene_.view.fit();
    drawn_ = false;
    changed();
}

std::shared_ptr<const TimelineTracks>
TimelineWidget::tracksFor(const std::shared_ptr<const Trace>& trace) {
    if (!trace) return nullptr;
    // Closed documents' traces are gone: drop their entries.
    cache_.erase(std::remove_if(cache_.begin(), cache_.end(),
                                [](const CachedTracks& c) { return c.trace.expired(); }),
                 cache_.end());
    for (const CachedTracks& c : cache_)
        if (c.trace.lock() == trace) return c.tracks;
    auto tracks = std::make_shared<const TimelineTracks>(buildTimelineTracks(*trace));
    cache_.push_back({trace, tracks});
    return tracks;
}

int TimelineWidget::maxScrollY() const {
    return std::max(0, layout_.contentHeight() - (height() - scene_.ruler_px));
}

QPointF TimelineWidget::eventCenter(int32_t event) const {
    const int row = layout_.rowOf(event);
    if (row < 0) return {};
    const TraceEvent& e = layout_.trace()->events[size_t(event)];
    const double mid = (double(e.start_ns) + double(e.end_ns())) / 2;
    return {scene_.gutter_px + scene_.view.xOf(mid),
            scene_.ruler_px + layout_.rows()[size_t(row)].y - scene_.scroll_y +
                layout_.rowHeight() / 2.0};
}

int32_t TimelineWidget::eventAt(QPointF pos) const {
    if (pos.x() < scene_.gutter_px || pos.y() < scene_.ruler_px) return -1;
    return layout_.hitTest(scene_.view, trackX(pos.x()), contentY(pos.y()), kHitTolerancePx);
}

void TimelineWidget::setDiagnoses(std::shared_ptr<const GpuDiagnoses> diagnoses,
                                  const std::shared_ptr<const Trace>& of) {
    if (!of || of != layout_.trace()) return;
    diagnoses_ = std::move(diagnoses);
    scene_.idle = diagnoses_ ? &diagnoses_->idle : nullptr;
    scene_.values = diagnoses_ ? &diagnoses_->counters : nullptr;
    setCriticalPath(diagnoses_ ? std::shared_ptr<const CriticalPathReport>(
                                     diagnoses_, &diagnoses_->critical_path)
                               : nullptr,
                    of);
    layout_.setCounterRows(
        int((tracks_ ? tracks_->counterRows() : 0) + (scene_.values ? scene_.values->size() : 0)));
    update();
}

void TimelineWidget::setCriticalPath(std::shared_ptr<const CriticalPathReport> path,
                                     const std::shared_ptr<const Trace>& of) {
    if (!of || of != layout_.trace()) return;
    const bool shown = scene_.on_path != nullptr;
    path_ = std::move(path);
    on_path_.clear();
    scene_.critical_path = nullptr;
    scene_.on_path = nullptr;
    if (shown) showCriticalPath(true);
    update();
}

bool TimelineWidget::showCriticalPath(bool show) {
    const bool has_path = path_ && !path_->path.edges.empty();
    if (show && has_path && on_path_.empty()) on_path_ = eventsOnPath(*layout_.trace(), *path_);
    scene_.critical_path = show && has_path ? path_.get() : nullptr;
    scene_.on_path = show && has_path ? &on_path_ : nullptr;
    update();
    return !show || has_path;
}

int TimelineWidget::idleGapAt(QPointF pos) const {
    if (!scene_.idle || pos.x() < scene_.gutter_px || pos.y() < scene_.ruler_px) return -1;
    const int row = layout_.rowAt(contentY(pos.y()));
    if (row < 0) return -1;
    const IdleGap* gap = ts::gui::idleGapAt(*scene_.idle, layout_.rows()[size_t(row)].lane,
                                            scene_.view.timeAt(trackX(pos.x())));
    return gap ? int(gap - scene_.idle->gaps.data()) : -1;
}

void TimelineWidget::selectEvent(int32_t event, bool reveal) {
    const auto& trace = layout_.trace();
    if (!trace || event >= int32_t(trace->events.size())) event = -1;
    scene_.selected = event;
    scene_.linked = event >= 0 ? trace->events[size_t(event)].link : -1;
    scene_.arrows = event >= 0 && tracks_ ? tracks_->launches.linksFor(*trace, event, kMaxArrows)
                                          : std::vector<LaunchPair>();
    if (event >= 0 && reveal) {
        const TraceEvent& e = trace->events[size_t(event)];
        if (e.start_ns < scene_.view.start_ns || e.end_ns() > scene_.view.endNs())
            scene_.view.centerOn((double(e.start_ns) + double(e.end_ns())) / 2);
        const int row = layout_.rowOf(event);
        const int y = row >= 0 ? layout_.rows()[size_t(row)].y : 0;
        const int page = height() - scene_.ruler_px;
        if (y < scene_.scroll_y || y + layout_.rowHeight() > scene_.scroll_y + page)
            setScrollY(y - page / 3);
    }
    emit eventSelected(event);
    changed();
}

void TimelineWidget::zoomToEvent(int32_t event) {
    const auto& trace = layout_.trace();
    if (!trace || event < 0 || size_t(event) >= trace->events.size()) return;
    const TraceEvent& e = trace->events[size_t(event)];
    // With the device work it launched (or the call that launched it): cause
    // and effect in one view.
    int64_t lo = e.start_ns, hi = e.end_ns();
    if (tracks_)
        for (const LaunchPair& launch : tracks_->launches.linksFor(*trace, event, kMaxArrows)) {
            lo = std::min({lo, trace->events[size_t(launch.first)].start_ns,
                           trace->events[size_t(launch.second)].start_ns});
            hi = std::max(hi, trace->events[size_t(launch.second)].end_ns());
        }
    frame(double(lo), double(hi));
    selectEvent(event, true);
}

void TimelineWidget::zoomToRange(int64_t start_ns, int64_t end_ns) {
    frame(double(start_ns), double(std::max(end_ns, start_ns + 1)));
    changed();
}

// The range stays framed when the widget is resized (shown at its size
// after another tab, the window resized) until the user zooms or pans.
void TimelineWidget::frame(double start_ns, double end_ns) {
    scene_.view.show(start_ns, end_ns, 0.15);
    framed_ = std::make_pair(start_ns, end_ns);
}

void TimelineWidget::fitAll() {
    framed_.reset();
    scene_.view.fit();
    changed();
}

void TimelineWidget::setScrollY(int y) {
    const int clamped = std::clamp(y, 0, maxScrollY());
    if (clamped == scene_.scroll_y) return;
    scene_.scroll_y = clamped;
    changed();
}

void TimelineWidget::setNameMatches(std::vector<uint8_t> matches) {
    name_matches_ = std::move(matches);
    scene_.name_matches = name_matches_.empty() ? nullptr : &name_matches_;
    update();
}

void TimelineWidget::setFocusEvents(const std::vector<int32_t>& events) {
    focus_.clear();
    if (!events.empty() && layout_.trace()) {
        focus_.assign(layout_.trace()->events.size(), 0);
        for (int32_t e : events)
            if (e >= 0 && size_t(e) < focus_.size()) focus_[size_t(e)] = 1;
    }
    scene_.focus = focus_.empty() ? nullptr : &focus_;
    update();
}

void TimelineWidget::selectArea(const TraceArea& area) {
    if (!layout_.trace() || area.end_ns <= area.start_ns) return;
    area_ = area;
    scene_.area = &*area_;
    update();
    emit areaSelected(*area_);
}

void TimelineWidget::selectAreaOfEvent(int32_t event) {
    if (!layout_.trace() || event < 0 || size_t(event) >= layout_.trace()->events.size()) return;
    const EventCore& e = layout_.trace()->events.core(size_t(event));
    selectArea({e.start_ns, std::max(e.end_ns(), e.start_ns + 1), {}});
}

void TimelineWidget::clearArea() {
    const bool had = area_.has_value() || scene_.focus;
    area_.reset();
    scene_.area = nullptr;
    setFocusEvents({});
    if (had) emit areaCleared();
}

TraceArea TimelineWidget::dragArea(QPointF pos) const {
    const double t0 = scene_.view.timeAt(trackX(std::min(press_pos_.x(), pos.x())));
    const double t1 = scene_.view.timeAt(trackX(std::max(press_pos_.x(), pos.x())));
    TraceArea area{int64_t(std::floor(t0)), int64_t(std::ceil(t1)), {}};
    area.lanes = layout_.lanesBetween(contentY(press_pos_.y()), contentY(pos.y()));
    return area;
}

void TimelineWidget::changed() {
    emit scrollRangeChanged(maxScrollY(), height() - scene_.ruler_px);
    emit viewChanged();
    update();
}

void TimelineWidget::paintEvent(QPaintEvent*) {
    QElapsedTimer timer;
    timer.start();
    QPainter painter(this);
    painter_.paint(painter, size(), scene_, palette());
    frames_.record(double(timer.nsecsElapsed()) / 1e6);
    if (tracks_ && !drawn_) {
        drawn_ = true;
        emit traceDrawn();
    }
}

void TimelineWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    scene_.view.setWidth(width() - scene_.gutter_px);
    if (framed_) frame(framed_->first, framed_->second);
    setScrollY(scene_.scroll_y);
    changed();
}

void TimelineWidget::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (!framed_) return;
    scene_.view.setWidth(width() - scene_.gutter_px);
    frame(framed_->first, framed_->second);
    changed();
}

void TimelineWidget::wheelEvent(QWheelEvent* event) {
    framed_.reset();
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ShiftModifier) {
        setScrollY(scene_.scroll_y - (delta.y() != 0 ? delta.y() : delta.x()) / 2);
    } else if (std::abs(delta.x()) > std::abs(delta.y())) {
        scene_.view.panPx(delta.x() / 2.0);
        changed();
    } else {
        scene_.view.zoomAt(trackX(event->position().x()),
                           std::pow(kWheelZoomPerNotch, delta.y() / 120.0));
        changed();
    }
    event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    press_pos_ = last_drag_pos_ = event->position();
    dragging_ = false;
    area_drag_ = (event->modifiers() & Qt::ShiftModifier) && layout_.trace();
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event) {
    if (!(event->buttons() & Qt::LeftButton)) return;
    const QPointF pos = event->position();
    if (!dragging_ && (pos - press_pos_).manhattanLength() < kDragThresholdPx) return;
    framed_.reset();
    if (area_drag_) {
        dragging_ = true;
        area_ = dragArea(pos);
        scene_.area = &*area_;
        update();
        return;
    }
    if (!dragging_) setCursor(Qt::ClosedHandCursor);
    dragging_ = true;
    const QPointF delta = pos - last_drag_pos_;
    last_drag_pos_ = pos;
    scene_.view.panPx(delta.x());
    scene_.scroll_y = std::clamp(int(scene_.scroll_y - delta.y()), 0, maxScrollY());
    changed();
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    if (area_drag_ && dragging_) {
        area_drag_ = dragging_ = false;
        const TraceArea area = dragArea(event->position());
        if (area.end_ns > area.start_ns && !area.lanes.empty())
            selectArea(area);
        else
            clearArea();
        return;
    }
    area_drag_ = false;
    if (!dragging_) {
        const int32_t hit = eventAt(event->position());
        selectEvent(hit, false);
        const int gap = hit < 0 ? idleGapAt(event->position()) : -1;
        if (gap >= 0) emit idleGapSelected(gap);
    }
    dragging_ = false;
    unsetCursor();
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent* event) {
    const int32_t hit = eventAt(event->position());
    if (hit >= 0) zoomToEvent(hit);
}

double TimelineWidget::keyboardAnchorX() const {
    const QPointF mouse = mapFromGlobal(QCursor::pos());
    if (rect().contains(mouse.toPoint()) && mouse.x() >= scene_.gutter_px) return trackX(mouse.x());
    return scene_.view.width_px / 2.0;
}

void TimelineWidget::keyPressEvent(QKeyEvent* event) {
    framed_.reset();
    const double pan = scene_.view.width_px * kKeyPanFraction;
    const int page = height() - scene_.ruler_px;
    switch (event->key()) {
    case Qt::Key_W:
        scene_.view.zoomAt(keyboardAnchorX(), kKeyZoom);
        break;
    case Qt::Key_S:
        scene_.view.zoomAt(keyboardAnchorX(), 1.0 / kKeyZoom);
        break;
    case Qt::Key_A:
    case Qt::Key_Left:
        scene_.view.panPx(pan);
        break;
    case Qt::Key_D:
    case Qt::Key_Right:
        scene_.view.panPx(-pan);
        break;
    case Qt::Key_Up:
        setScrollY(scene_.scroll_y - layout_.rowHeight());
        return;
    case Qt::Key_Down:
        setScrollY(scene_.scroll_y + layout_.rowHeight());
        return;
    case Qt::Key_PageUp:
        setScrollY(scene_.scroll_y - page);
        return;
    case Qt::Key_PageDown:
        setScrollY(scene_.scroll_y + page);
        return;
    case Qt::Key_0:
    case Qt::Key_Home:
        scene_.view.fit();
        break;
    case Qt::Key_F:
        zoomToEvent(scene_.selected);
        return;
    case Qt::Key_M:
        selectAreaOfEvent(scene_.selected);
        return;
    case Qt::Key_Escape:
        if (area_ || scene_.focus)
            clearArea();
        else
            selectEvent(-1, false);
        return;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    changed();
}

bool TimelineWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int32_t hit = eventAt(help->pos());
        const int counter =
            help->pos().y() >= scene_.ruler_px && help->pos().x() >= scene_.gutter_px
                ? layout_.counterAt(contentY(help->pos().y()))
                : -1;
        if (hit < 0 && counter >= 0 && tracks_) {
            QToolTip::showText(help->globalPos(),
                               counterRowValue(scene_, counter, trackX(help->pos().x())), this);
            return true;
        }
        if (hit < 0) {
            QToolTip::hideText();
            return true;
        }
        const TraceEvent& e = layout_.trace()->events[size_t(hit)];
        QToolTip::showText(
            help->globalPos(),
            QStringLiteral("%1\n%2").arg(QString::fromStdString(layout_.trace()->nameOf(e)),
                                         format::durationNs(e.dur_ns)),
            this);
        return true;
    }
    return QWidget::event(event);
}

void TimelineWidget::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && layout_.trace())
        painter_.prepare(*layout_.trace(), palette());
    if (event->type() == QEvent::FontChange) updateMetrics();
}

} // namespace ts::gui
