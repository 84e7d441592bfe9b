#include "operators/CallStackText.h"

#include <algorithm>
#include <vector>

#include <QCoreApplication>
#include <QStringList>

namespace ts::gui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("CallStackText", text);
}

QString calls(int64_t n) {
    return n == 1 ? tr("1 call") : tr("%1 calls").arg(n);
}

struct StackCalls {
    std::string stack;
    int64_t calls = 0;
};

// Is `candidate` (grouped by name, shapes and stack) part of `row`?
bool partOf(const DeviceOpRow& candidate, const DeviceOpRow& row, DeviceOpGrouping grouping) {
    const bool shapes = grouping == DeviceOpGrouping::NameAndShapes ||
                        grouping == DeviceOpGrouping::NameShapesAndStack;
    const bool stack = grouping == DeviceOpGrouping::NameAndStack ||
                       grouping == DeviceOpGrouping::NameShapesAndStack;
    return candidate.name == row.name && (!shapes || candidate.shapes == row.shapes) &&
           (!stack || candidate.call_stack == row.call_stack);
}

// Rows of different shapes can share a stack: merged, first appearance first.
std::vector<StackCalls> stacksOf(const DeviceOpTable& by_stack, const DeviceOpRow& row,
                                 DeviceOpGrouping grouping) {
    std::vector<StackCalls> out;
    for (const DeviceOpRow& r : by_stack.rows) {
        if (r.call_stack.empty() || !partOf(r, row, grouping)) continue;
        auto it = std::find_if(out.begin(), out.end(),
                               [&r](const StackCalls& s) { return s.stack == r.call_stack; });
        if (it == out.end())
            out.push_back({r.call_stack, r.calls});
        else
            it->calls += r.calls;
    }
    return out;
}

// Kineto joins the frames with ';', innermost first.
QString frames(const std::string& stack) {
    QStringList lines = QString::fromStdString(stack).split(QLatin1Char(';'), Qt::SkipEmptyParts);
    for (QString& line : lines)
        line = QStringLiteral("  ") + line.trimmed();
    return lines.join(QLatin1Char('\n'));
}

} // namespace

QString noCallStacksText() {
    return tr("No call stacks: record with torch.profiler(with_stack=True)");
}

QString callStacksText(const DeviceOpTable& by_stack, const DeviceOpRow& row,
                       DeviceOpGrouping grouping) {
    const std::vector<StackCalls> stacks = stacksOf(by_stack, row, grouping);
    if (stacks.empty()) return noCallStacksText();
    QStringList parts;
    parts << (stacks.size() == 1 ? tr("%1: 1 call stack").arg(QString::fromStdString(row.name))
                                 : tr("%1: %2 call stacks")
                                       .arg(QString::fromStdString(row.name))
                                       .arg(stacks.size()));
    int64_t with_stack = 0;
    for (const StackCalls& s : stacks) {
        parts << calls(s.calls) + QLatin1Char(':') + QLatin1Char('\n') + frames(s.stack);
        with_stack += s.calls;
    }
    if (row.calls > with_stack)
        parts << tr("%1 without a call stack").arg(calls(row.calls - with_stack));
    return parts.join(QStringLiteral("\n\n"));
}

} // namespace ts::gui
