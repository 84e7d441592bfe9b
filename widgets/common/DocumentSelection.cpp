#include "common/DocumentSelection.h"

#include <QStringList>

namespace ts::gui {
namespace {

// Enough to step back through an exploration; older choices are dropped.
constexpr size_t kHistory = 32;

QString millis(int64_t ns) {
    return QString::number(double(ns) / 1e6, 'f', 3);
}

} // namespace

QString Selection::label(const std::function<QString(int32_t)>& event_name) const {
    QStringList parts;
    if (step) parts << QObject::tr("step %1").arg(*step);
    if (range) parts << QObject::tr("%1–%2 ms").arg(millis(range->start_ns), millis(range->end_ns));
    if (rank) parts << QObject::tr("rank %1").arg(*rank);
    if (event >= 0) parts << (event_name ? event_name(event) : QObject::tr("event %1").arg(event));
    if (!focus.empty()) parts << QObject::tr("%n event(s) picked out", "", int(focus.size()));
    return parts.join(QStringLiteral(" · "));
}

TimeWindow windowOf(const Selection& s) {
    TimeWindow window;
    if (s.range) {
        window.start_ns = s.range->start_ns;
        window.end_ns = s.range->end_ns;
    }
    return window;
}

QString windowText(const Selection& s) {
    if (!s.range) return {};
    const QString span =
        QObject::tr("%1–%2 ms").arg(millis(s.range->start_ns), millis(s.range->end_ns));
    return s.step ? QObject::tr("step %1, %2").arg(*s.step).arg(span) : span;
}

DocumentSelection::DocumentSelection(QObject* parent) : QObject(parent) {
    qRegisterMetaType<ts::gui::Selection>();
}

bool DocumentSelection::canGoBack() const {
    return !before_.empty();
}

void DocumentSelection::presetFor(const QString& key, const Selection& selection) {
    if (key == key_) {
        apply(selection, nullptr);
        return;
    }
    kept_[key] = Kept{selection, {}};
}

void DocumentSelection::setDocument(const QString& key) {
    if (key == key_) return;
    if (!key_.isEmpty()) kept_[key_] = Kept{current_, before_};
    key_ = key;
    const auto found = kept_.find(key);
    if (found != kept_.end()) {
        current_ = found->second.current;
        before_ = found->second.before;
        kept_.erase(found);
    } else {
        current_ = Selection{};
        before_.clear();
    }
    emit documentChanged();
}

void DocumentSelection::forget(const QString& key) {
    kept_.erase(key);
}

unsigned DocumentSelection::difference(const Selection& a, const Selection& b) {
    unsigned what = 0;
    if (a.range != b.range || a.step != b.step) what |= RangeChanged;
    if (a.rank != b.rank) what |= RankChanged;
    if (a.event != b.event) what |= EventChanged;
    if (a.focus != b.focus) what |= FocusChanged;
    return what;
}

void DocumentSelection::apply(Selection next, const QObject* origin) {
    const unsigned what = difference(current_, next);
    if (!what) return;
    before_.push_back(current_);
    if (before_.size() > kHistory) before_.erase(before_.begin());
    current_ = std::move(next);
    emit changed(current_, what, origin);
}

void DocumentSelection::followWindow(QObject* context,
                                     std::function<void(const TimeWindow&, const QString&)> apply) {
    connect(this, &DocumentSelection::changed, context,
            [apply = std::move(apply)](const Selection& s, unsigned what) {
                if (what & RangeChanged) apply(windowOf(s), windowText(s));
            });
}

void DocumentSelection::selectRange(Selection::Range range, const QObject* origin) {
    if (range.end_ns <= range.start_ns) return;
    Selection next = current_;
    next.range = range;
    next.step.reset();
    apply(std::move(next), origin);
}

void DocumentSelection::selectStep(int64_t step, int64_t start_ns, int64_t end_ns,
                                   const QObject* origin) {
    if (end_ns <= start_ns) return;
    Selection next = current_;
    next.range = Selection::Range{start_ns, end_ns};
    next.step = step;
    apply(std::move(next), origin);
}

void DocumentSelection::selectRank(std::optional<int> rank, const QObject* origin) {
    Selection next = current_;
    next.rank = rank;
    apply(std::move(next), origin);
}

void DocumentSelection::selectEvent(int32_t event, const QObject* origin) {
    Selection next = current_;
    next.event = event;
    apply(std::move(next), origin);
}

void DocumentSelection::focusEvents(std::vector<int32_t> events, const QObject* origin) {
    Selection next = current_;
    next.focus = std::move(events);
    apply(std::move(next), origin);
}

void DocumentSelection::clearRange(const QObject* origin) {
    Selection next = current_;
    next.range.reset();
    next.step.reset();
    apply(std::move(next), origin);
}

void DocumentSelection::clear() {
    apply(Selection{}, nullptr);
}

void DocumentSelection::back() {
    if (before_.empty()) return;
    const Selection old = current_;
    current_ = before_.back();
    before_.pop_back();
    const unsigned what = difference(old, current_);
    if (what) emit changed(current_, what, nullptr);
}

} // namespace ts::gui
