#pragma once
// Widget tests' check that a chart's legend shows every entry whole:
// QCustomPlot clips an entry that is wider than its column.
#include <QString>
#include <qcustomplot.h>

namespace ts::testing {

// The entries of `plot`'s legend cut by their column ("Kernel 17.1" without
// its "%"), as "entry 2 'Communication' 80 < 104 px; ...", empty when none;
// `entries` gets their number. The plot must have been laid out (replot).
inline QString clippedLegendEntries(const QCustomPlot& plot, int* entries = nullptr) {
    QString clipped;
    int count = 0;
    for (int i = 0; i < plot.legend->itemCount(); ++i) {
        QCPAbstractLegendItem* item = plot.legend->item(i);
        if (!item) continue; // a gap in the last row
        ++count;
        const int shown = item->outerRect().width(), needed = item->minimumOuterSizeHint().width();
        if (shown >= needed) continue;
        auto* plottableItem = qobject_cast<QCPPlottableLegendItem*>(item);
        clipped += QStringLiteral("entry %1 '%2' %3 < %4 px; ")
                       .arg(i)
                       .arg(plottableItem ? plottableItem->plottable()->name() : QString())
                       .arg(shown)
                       .arg(needed);
    }
    if (entries) *entries = count;
    return clipped;
}

} // namespace ts::testing
