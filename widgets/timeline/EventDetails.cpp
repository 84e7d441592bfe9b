#include "timeline/EventDetails.h"

#include <algorithm>
#include <limits>

#include <QObject>
#include <QStringList>

#include "analysis/OpMemory.h"
#include "common/Format.h"
#include "timeline/IdleGapPainter.h"
#include "timeline/TimelineLayout.h"

namespace ts::gui {
namespace {

QString link(const Trace& trace, int32_t event) {
    return QStringLiteral("<a href=\"event:%1\">%2</a>")
        .arg(event)
        .arg(QString::fromStdString(trace.nameOf(trace.events[size_t(event)])).toHtmlEscaped());
}

QString row(const QString& name, const QString& value_html) {
    return QStringLiteral("<tr><td style='padding-right:8px'><b>%1</b></td><td>%2</td></tr>")
        .arg(name.toHtmlEscaped(), value_html);
}

QString callPath(const Trace& trace, int32_t event) {
    QStringList parts;
    for (int32_t p = trace.events[size_t(event)].parent; p >= 0 && parts.size() < 32;
         p = trace.events[size_t(p)].parent)
        parts.prepend(link(trace, p));
    return parts.isEmpty() ? QObject::tr("(top level)") : parts.join(QStringLiteral(" ▸ "));
}

constexpr size_t kListedLaunches = 8;

// A device event: the runtime call that launched it and how long the work
// waited in the stream. Anything else: the device work it launched.
QString launchRows(const Trace& trace, const LaunchIndex& launches, int32_t event) {
    size_t total = 0;
    const std::vector<LaunchPair> pairs =
        launches.linksFor(trace, event, std::numeric_limits<size_t>::max(), &total);
    if (pairs.empty()) return {};
    if (pairs.size() == 1 && pairs[0].second == event) {
        const TraceEvent& call = trace.events[size_t(pairs[0].first)];
        const int64_t delay = trace.events[size_t(event)].start_ns - call.start_ns;
        QString from = link(trace, pairs[0].first);
        if (call.parent >= 0) from += QObject::tr(" in ") + link(trace, call.parent);
        return row(QObject::tr("Launched by"), from) +
               row(QObject::tr("Launch delay"), format::durationNs(delay));
    }
    int64_t device_ns = 0, first = std::numeric_limits<int64_t>::max(), last = 0;
    QStringList listed;
    for (const LaunchPair& pair : pairs) {
        const TraceEvent& work = trace.events[size_t(pair.second)];
        device_ns += work.dur_ns;
        first = std::min(first, work.start_ns);
        last = std::max(last, work.end_ns());
        if (size_t(listed.size()) < kListedLaunches) listed << link(trace, pair.second);
    }
    if (total > kListedLaunches) listed << QObject::tr("… %1 more").arg(total - kListedLaunches);
    return row(QObject::tr("Device work"),
               QObject::tr("%1 launched (arrows), %2 of device time, on the device %3 after "
                           "this started, for %4")
                   .arg(total)
                   .arg(format::durationNs(device_ns),
                        format::durationNs(first - trace.events[size_t(event)].start_ns),
                        format::durationNs(last - first))) +
           row(QObject::tr("Launched"), listed.join(QStringLiteral(", ")));
}

} // namespace

QString eventDetailsHtml(const TimelineLayout& layout, int32_t event, const LaunchIndex* launches) {
    const auto& trace_ptr = layout.trace();
    if (!trace_ptr || event < 0 || size_t(event) >= trace_ptr->events.size())
        return QObject::tr(
            "<p>Click an event to see its details.</p>"
            "<p><b>Wheel</b> zooms, <b>drag</b> pans, <b>W/S</b> zoom, <b>A/D</b> pan, "
            "<b>F</b> zooms to the selection, <b>0</b> shows everything.</p>"
            "<p>GPU streams are shaded where they idle: <span style='color:#e67814'>host "
            "wait</span>, <span style='color:#b49600'>kernel wait</span>, <span "
            "style='color:#8264c8'>other</span>; click a gap to see why.</p>");
    const Trace& trace = *trace_ptr;
    const TraceEvent& e = trace.events[size_t(event)];
    int64_t children_ns = 0;
    const std::vector<int32_t> children = layout.childrenOf(event);
    for (int32_t c : children)
        children_ns += trace.events[size_t(c)].dur_ns;
    const int64_t self_ns = std::max<int64_t>(0, e.dur_ns - children_ns);

    QString html = QStringLiteral("<h3>%1</h3><table>")
                       .arg(QString::fromStdString(trace.nameOf(e)).toHtmlEscaped());
    html += row(QObject::tr("Kind"), QString::fromLatin1(toString(e.kind)));
    html += row(QObject::tr("Lane"),
                QString::fromStdString(trace.lanes[size_t(e.lane)].name).toHtmlEscaped());
    html += row(QObject::tr("Start"), format::durationNs(e.start_ns - layout.startNs()));
    html += row(QObject::tr("Duration"), format::durationNs(e.dur_ns));
    html +=
        row(QObject::tr("Self time"),
            QObject::tr("%1 (%2 children)").arg(format::durationNs(self_ns)).arg(children.size()));
    if (e.step >= 0) html += row(QObject::tr("Step"), QString::number(e.step));
    if (e.shapes >= 0)
        html += row(QObject::tr("Input shapes"),
                    QString::fromStdString(trace.shapesOf(e)).toHtmlEscaped());
    if (e.flops > 0) {
        html += row(QObject::tr("FLOPs"), format::flops(e.flops));
        if (e.dur_ns > 0)
            html +=
                row(QObject::tr("Rate"),
                    QObject::tr("%1 GFLOP/s").arg(format::number(e.flops / double(e.dur_ns), 4)));
    }
    if (e.bytes > 0) html += row(QObject::tr("Bytes moved"), format::bytes(e.bytes));
    if (const OpMemory memory = opMemoryOf(trace, event);
        memory.alloc_bytes > 0 || memory.free_bytes > 0)
        html += row(QObject::tr("Memory"), QObject::tr("+%1 / −%2")
                                               .arg(format::bytes(double(memory.alloc_bytes)),
                                                    format::bytes(double(memory.free_bytes))));
    if (e.device_ns > 0) html += row(QObject::tr("Device time"), format::durationNs(e.device_ns));
    if (e.seq >= 0) html += row(QObject::tr("Autograd seq"), QString::number(e.seq));
    if (e.link >= 0 && size_t(e.link) < trace.events.size())
        html +=
            row(e.kind == EventKind::Backward ? QObject::tr("Forward op")
                                              : QObject::tr("Backward node"),
                link(trace, e.link) + QStringLiteral(" (") +
                    format::durationNs(trace.events[size_t(e.link)].dur_ns) + QStringLiteral(")"));
    html += row(QObject::tr("Called from"), callPath(trace, event));
    if (launches) html += launchRows(trace, *launches, event);
    html += QStringLiteral("</table>");
    return html;
}

namespace {

QString idleCauseText(const IdleBreakdown& idle, IdleCause cause) {
    switch (cause) {
    case IdleCause::HostWait:
        return QObject::tr("The work after it was launched only after the stream's previous work "
                           "had ended: the GPU waited for the CPU.");
    case IdleCause::KernelWait:
        return QObject::tr("Launched in time, and shorter than %1: the cost of running one kernel "
                           "after another (fewer, larger kernels shorten it).")
            .arg(format::durationNs(idle.kernel_wait_ns));
    case IdleCause::Other:
        break;
    }
    return QObject::tr("Launched in time, yet the stream waited %1 or more: a synchronisation, "
                       "an event wait or work on another stream held it.")
        .arg(format::durationNs(idle.kernel_wait_ns));
}

} // namespace

QString idleGapDetailsHtml(const TimelineLayout& layout, const IdleBreakdown& idle, int gap,
                           const LaunchIndex* launches) {
    const auto& trace_ptr = layout.trace();
    if (!trace_ptr || gap < 0 || size_t(gap) >= idle.gaps.size()) return {};
    const Trace& trace = *trace_ptr;
    const IdleGap& g = idle.gaps[size_t(gap)];
    QString html = QObject::tr("<h3>Idle: %1</h3><p>%2</p><table>")
                       .arg(idleCauseTitle(g.cause), idleCauseText(idle, g.cause));
    html += row(QObject::tr("Lane"),
                QString::fromStdString(trace.lanes[size_t(g.lane)].name).toHtmlEscaped());
    html += row(QObject::tr("Start"), format::durationNs(g.start - layout.startNs()));
    html += row(QObject::tr("Duration"), format::durationNs(g.end - g.start));
    if (g.next >= 0) {
        html += row(QObject::tr("Next work"), link(trace, g.next));
        if (launches) html += launchRows(trace, *launches, g.next);
    }
    html += QStringLiteral("</table><p>The Idle Time view sums these gaps per stream and "
                           "cause (Holistic Trace Analysis' idle-time breakdown).</p>");
    return html;
}

int32_t eventFromLink(const QString& link) {
    if (!link.startsWith(QLatin1String("event:"))) return -1;
    bool ok = false;
    const int value = link.mid(6).toInt(&ok);
    return ok ? value : -1;
}

} // namespace ts::gui
