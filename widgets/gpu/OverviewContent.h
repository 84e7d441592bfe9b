#pragma once
// What the Overview tab shows, as plain values: a time breakdown per step in
// named categories (the plugin's Kernel … Other for a Kineto trace, the
// training phases for one of Trainscope's runs), the GPUs and the
// recommendations. Built here from either source, so one view shows both.
#include <vector>

#include <QString>
#include <QStringList>

#include "analysis/GpuMetrics.h"
#include "analysis/TraceRecommendations.h"
#include "report/RunDirectory.h"

namespace ts {
struct GpuTraceAnalysis;
}

namespace ts::gui {

struct OverviewStep {
    QString label;
    std::vector<double> us; // one per category
    // Its number and span on the trace's clock (a trace's steps), -1: none.
    int64_t step = -1;
    int64_t start_ns = 0, end_ns = 0;
};

struct OverviewContent {
    QString source;         // what the numbers come from, one line
    QString empty_message;  // non-empty: nothing to chart, say why
    QStringList categories; // "Kernel", …, or "Data", "Copy", …
    std::vector<OverviewStep> steps;
    std::vector<double> average_us; // one per category
    std::vector<GpuDeviceSummary> gpus;
    std::vector<TraceRecommendation> recommendations;

    bool empty() const { return categories.isEmpty() || steps.empty(); }
    double averageTotalUs() const;
};

// The plugin's Overview of a Kineto trace. Without GPU work only the
// categories a CPU trace can have (DataLoader, CPU Exec, Other) are kept.
OverviewContent overviewOfTrace(const GpuTraceAnalysis& analysis);
// The phases of a run's steps (data, copy, forward, backward, optimizer, other).
OverviewContent overviewOfRun(const RunRecord& run);

} // namespace ts::gui
