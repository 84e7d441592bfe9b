#pragma once
// Colours of timeline events: a stable colour per event name (the same op is
// the same colour in every trace), with hue families per kind so forward ops,
// backward nodes and annotations are told apart at a glance.
#include <vector>

#include <QColor>

#include "trace/Trace.h"

namespace ts::gui {

class TimelinePalette {
public:
    // Computes one colour per (name, kind) seen in the trace.
    void build(const Trace& trace, bool dark);
    const QColor& colorOf(const EventCore& event) const;

private:
    static QColor pick(const std::string& name, EventKind kind, bool dark);
    std::vector<QColor> by_name_[2]; // [0] forward/other kinds, [1] backward
    std::vector<QColor> annotation_;
    QColor fallback_;
};

} // namespace ts::gui
