// The pages of a trace's analysis (shell/ViewRegistry.h): each a widget that
// shows what its `needs` names of the document's analysis and follows the
// document's selection.
#include "shell/TracePages.h"
#include "gpu/CriticalPathView.h"
#include "gpu/KernelsView.h"
#include "memory/MemoryUsageView.h"
#include "modules/ModulesView.h"
#include "operators/OperatorsView.h"
#include "report/AnnotationTables.h"
#include "report/CounterTables.h"
#include "report/IdleTables.h"
#include "report/KernelSequenceTables.h"
#include "report/KernelTypeTables.h"
#include "report/LaunchTables.h"
#include "roofline/RooflineView.h"
#include "shell/PageKinds.h"
#include "sql/QueryView.h"
#include "timeline/TimelineView.h"
#include "training/RunController.h"

namespace ts::gui::pages {
namespace {

using Tables = std::vector<table::TableSpec>;

ViewPage operators() {
    return analysisPage<OperatorsView>(
        "operators", AnalysisNeed::Analysis,
        [](const ViewContext& c) {
            auto* v = new OperatorsView;
            v->followSelection(&c.selection);
            return v;
        },
        [](OperatorsView& v, const ShownDocument& s) {
            v.setTrace(s.doc.trace, s.description, s.analysis().full);
        },
        [](OperatorsView& v, const QString&) { v.clear(); });
}

ViewPage kernels() {
    return analysisPage<KernelsView>(
        "kernels", AnalysisNeed::Analysis,
        [](const ViewContext& c) {
            auto* v = new KernelsView(&c.settings);
            v->followSelection(&c.selection);
            return v;
        },
        [](KernelsView& v, const ShownDocument& s) {
            v.setBaseline(s.baseline ? s.baseline->analysis->full : nullptr, s.baselineTitle());
            v.setAnalysis(s.analysis().full, s.description, s.doc.trace);
        },
        [](KernelsView& v, const QString& message) { v.setAnalysis(nullptr, message); });
}

ViewPage memory() {
    return analysisPage<MemoryUsageView>(
        "memory", AnalysisNeed::Memory,
        [](const ViewContext& c) {
            auto* v = new MemoryUsageView(&c.settings);
            v->followSelection(&c.selection);
            return v;
        },
        [](MemoryUsageView& v, const ShownDocument& s) {
            v.setTrace(s.doc.trace, s.analysis().full, s.analysis().memory, s.description);
        },
        [](MemoryUsageView& v, const QString&) { v.clear(); });
}

ViewPage modules() {
    return analysisPage<ModulesView>(
        "modules", AnalysisNeed::Modules,
        [](const ViewContext& c) {
            auto* v = new ModulesView;
            DocumentSelection* selection = &c.selection;
            QObject::connect(v, &ModulesView::callActivated, v,
                             [selection, v](const ModuleCall& call) {
                                 selection->selectRange({call.start_ns, call.end_ns, call.lane}, v);
                                 selection->requestView(QStringLiteral("timeline"));
                             });
            return v;
        },
        [](ModulesView& v, const ShownDocument& s) {
            v.setView(s.analysis().modules, s.description);
        },
        [](ModulesView& v, const QString& message) { v.setView(nullptr, message); });
}

ViewPage roofline() {
    ViewPage p = analysisPage<RooflineView>(
        "roofline", AnalysisNeed::Trace,
        [](const ViewContext& c) {
            auto* v = new RooflineView(c.settings);
            QObject::connect(&c.controller, &RunController::runStarted, v,
                             [v](const RunLaunch& launch) { v->setRunConfig(launch.config); });
            return v;
        },
        [](RooflineView& v, const ShownDocument& s) {
            if (s.doc.run) v.setRunConfig(s.doc.run->info.config);
            v.setTrace(s.doc.trace, s.description);
        },
        [](RooflineView& v, const QString&) { v.clear(); });
    p.shortcut = "Ctrl+6";
    return p;
}

ViewPage criticalPath() {
    return analysisPage<CriticalPathView>(
        "critical-path", AnalysisNeed::Diagnoses,
        [](const ViewContext& c) {
            auto* v = new CriticalPathView(&c.settings);
            v->followSelection(&c.selection);
            return v;
        },
        [](CriticalPathView& v, const ShownDocument& s) {
            v.setDiagnoses(s.doc.trace, s.analysis().diagnoses, s.description);
        },
        [](CriticalPathView& v, const QString& message) { v.clear(message); });
}

ViewPage query() {
    ViewPage p = analysisPage<QueryView>(
        "query", AnalysisNeed::Trace,
        [](const ViewContext& c) {
            auto* v = new QueryView(&c.settings);
            v->followSelection(&c.selection);
            return v;
        },
        [](QueryView& v, const ShownDocument& s) { v.setTrace(s.doc.trace, s.description); },
        [](QueryView& v, const QString& message) { v.clear(message); });
    p.busy = [](QWidget* w) { return as<QueryView>(w).running(); };
    return p;
}

ViewPage timeline() {
    ViewPage p = documentPage<TimelineView>(
        "timeline",
        [](const ViewContext& c) {
            auto* v = new TimelineView(&c.settings);
            v->followSelection(&c.selection);
            return v;
        },
        [](TimelineView& v, const ShownDocument& s) { v.showDocument(s.doc, s.description); },
        [](TimelineView& v, const QString& message) { v.setTrace(nullptr, message); });
    p.grown = [](QWidget* w, const ShownDocument& s) { as<TimelineView>(w).showDiagnoses(s.doc); };
    p.busy = [](QWidget* w) { return as<TimelineView>(w).busy(); };
    p.offered_without_document = true;
    p.shortcut = "Ctrl+3";
    return p;
}

} // namespace

std::vector<ViewPage> tracePages() {
    std::vector<ViewPage> pages{operators(), kernels(),      memory(), modules(),
                                roofline(),  criticalPath(), query(),  timeline()};
    pages.front().shortcut = "Ctrl+2";
    pages.push_back(tablesPage("temporal", [](const Trace&, const GpuDiagnoses& d) {
        return Tables{temporalTable({d.temporal})};
    }));
    pages.push_back(tablesPage("idle", [](const Trace&, const GpuDiagnoses& d) {
        return Tables{idleTable({d.idle}), idleIntervalTable({d.idle})};
    }));
    pages.push_back(tablesPage("launches", [](const Trace& trace, const GpuDiagnoses& d) {
        return Tables{launchSummaryTable({d.launches}), launchOutlierTable({d.launches}),
                      outlierLaunchTable({d.launches}, {launchNames(trace, d.launches)}, 5000)};
    }));
    pages.push_back(tablesPage("kernel-types", [](const Trace&, const GpuDiagnoses& d) {
        return Tables{kernelTypeTable({d.kernel_types}), commCompOverlapTable({d.kernel_types}),
                      kernelsByTypeTable({d.kernel_types})};
    }));
    pages.push_back(tablesPage("queue", [](const Trace&, const GpuDiagnoses& d) {
        return Tables{queueLengthTable({d.queue})};
    }));
    pages.push_back(tablesPage("memory-bw", [](const Trace&, const GpuDiagnoses& d) {
        return Tables{memoryBandwidthTable({d.memory_bw})};
    }));
    pages.push_back(tablesPage("annotations", [](const Trace&, const GpuDiagnoses& d) {
        // The kernels under the GPU ranges, or the CPU ranges' where the
        // trace has no GPU copies of them.
        const AnnotationBreakdown& kernels =
            d.gpu_annotations.empty() ? d.cpu_annotations : d.gpu_annotations;
        return Tables{annotationTable({d.gpu_annotations}), annotationTable({d.cpu_annotations}),
                      annotatedKernelTable({kernels})};
    }));
    pages.push_back(tablesPage("kernel-sequences", [](const Trace&, const GpuDiagnoses& d) {
        return Tables{kernelSequenceTable({d.sequences}), sequenceKernelTable({d.sequences})};
    }));
    return pages;
}

} // namespace ts::gui::pages
