#include "timeline/EventDetails.h"

#include <QObject>
#include <QStringList>

#include "common/Format.h"
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

} // namespace

QString eventDetailsHtml(const TimelineLayout& layout, int32_t event) {
    const auto& trace_ptr = layout.trace();
    if (!trace_ptr || event < 0 || size_t(event) >= trace_ptr->events.size())
        return QObject::tr(
            "<p>Click an event to see its details.</p>"
            "<p><b>Wheel</b> zooms, <b>drag</b> pans, <b>W/S</b> zoom, <b>A/D</b> pan, "
            "<b>F</b> zooms to the selection, <b>0</b> shows everything.</p>");
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
    if (e.alloc_bytes > 0 || e.free_bytes > 0)
        html += row(QObject::tr("Memory"), QObject::tr("+%1 / −%2")
                                               .arg(format::bytes(double(e.alloc_bytes)),
                                                    format::bytes(double(e.free_bytes))));
    if (e.device_ns > 0) html += row(QObject::tr("Device time"), format::durationNs(e.device_ns));
    if (e.seq >= 0) html += row(QObject::tr("Autograd seq"), QString::number(e.seq));
    if (e.link >= 0 && size_t(e.link) < trace.events.size())
        html +=
            row(e.kind == EventKind::Backward ? QObject::tr("Forward op")
                                              : QObject::tr("Backward node"),
                link(trace, e.link) + QStringLiteral(" (") +
                    format::durationNs(trace.events[size_t(e.link)].dur_ns) + QStringLiteral(")"));
    html += row(QObject::tr("Called from"), callPath(trace, event));
    html += QStringLiteral("</table>");
    return html;
}

int32_t eventFromLink(const QString& link) {
    if (!link.startsWith(QLatin1String("event:"))) return -1;
    bool ok = false;
    const int value = link.mid(6).toInt(&ok);
    return ok ? value : -1;
}

} // namespace ts::gui
