#pragma once
// The text of the Operators tab's call-stack pane for one row of the Kineto
// operator table: the distinct call stacks its calls were recorded with,
// in the table's order (most device, else host, self time first), one frame
// a line.
#include <QString>

#include "analysis/DeviceOpStats.h"

namespace ts::gui {

// `by_stack`: the trace's operators grouped by name, shapes and call stack;
// `row`: a row of the table grouped by `grouping`.
QString callStacksText(const DeviceOpTable& by_stack, const DeviceOpRow& row,
                       DeviceOpGrouping grouping);
// What the pane says when the calls recorded no call stack.
QString noCallStacksText();

} // namespace ts::gui
