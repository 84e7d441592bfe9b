// The GUI's view entries (shell/ViewRegistry.h). A view that only shows a
// trace's analysis needs its widget, its `show` and its `needs`; the window
// does the rest.
#include <map>
#include <stdexcept>

#include "common/SpecTablesView.h"
#include "diff/TraceDiffView.h"
#include "gpu/CriticalPathView.h"
#include "gpu/KernelsView.h"
#include "gpu/OverviewView.h"
#include "live/LiveView.h"
#include "memory/CategoryTimelineView.h"
#include "memory/MemoryUsageView.h"
#include "memory/SnapshotView.h"
#include "modules/ModulesView.h"
#include "operators/OperatorsView.h"
#include "ranks/RanksView.h"
#include "report/AnnotationTables.h"
#include "report/CounterTables.h"
#include "report/IdleTables.h"
#include "report/KernelSequenceTables.h"
#include "report/KernelTypeTables.h"
#include "report/LaunchTables.h"
#include "roofline/RooflineView.h"
#include "runs/RunsView.h"
#include "shell/ViewRegistry.h"
#include "sql/QueryView.h"
#include "studies/ExperimentsView.h"
#include "timeline/TimelineView.h"

namespace ts::gui {
namespace {

template <typename W> W& as(QWidget* widget) {
    return *static_cast<W*>(widget);
}

// Views of a trace: offered with no document open (they say how to get one)
// and for documents with a trace.
bool hasTrace(const OpenedDocument* doc) {
    return !doc || doc->trace;
}

ViewPage page(View id, const char* name, std::function<QWidget*(const ViewContext&)> create) {
    ViewPage p;
    p.id = id;
    p.create = std::move(create);
    p.info = views::findView(name);
    if (!p.info) throw std::logic_error(std::string("no catalog entry for the view ") + name);
    return p;
}

// A view of a trace's analysis: made by `create`, filled by `show`, waiting
// through W's showPending, emptied by `clear`.
template <typename W>
ViewPage analysisPage(View id, const char* name, Needs needs,
                      std::function<W*(const ViewContext&)> create,
                      std::function<void(W&, const ShownTrace&)> show,
                      std::function<void(W&, const QString&)> clear) {
    ViewPage p = page(id, name,
                      [create](const ViewContext& context) -> QWidget* { return create(context); });
    p.needs = needs;
    p.show = [show](QWidget* w, const ShownTrace& shown) { show(as<W>(w), shown); };
    p.pending = [](QWidget* w, const QString& message) { as<W>(w).showPending(message); };
    p.clear = [clear](QWidget* w, const QString& message) { clear(as<W>(w), message); };
    p.applies = hasTrace;
    return p;
}

// HTA's diagnoses of the trace shown: made with the analysis, or here for
// a trace shown without them (a live capture).
const GpuDiagnoses& diagnosesOf(const ShownTrace& s, std::shared_ptr<const GpuDiagnoses>& made) {
    if (s.analysis.diagnoses) return *s.analysis.diagnoses;
    made = std::make_shared<const GpuDiagnoses>(diagnoseGpu(*s.trace, s.analysis.full.get()));
    return *made;
}

SpecTables diagnosisTables(const GpuDiagnoses& d, std::vector<table::TableSpec> tables) {
    SpecTables out;
    for (const std::string& note : activityNotes(d.activity))
        out.notes << QString::fromStdString(note);
    if (!d.activity.empty()) out.tables = std::move(tables);
    return out;
}

// A view whose analysis gives tables alone: the window's generic
// SpecTablesView shows what `tables` makes of the trace's diagnoses.
ViewPage
tablesPage(View id, const char* name,
           std::function<std::vector<table::TableSpec>(const Trace&, const GpuDiagnoses&)> tables) {
    return analysisPage<SpecTablesView>(
        id, name, Needs::Diagnoses,
        [](const ViewContext& c) { return new SpecTablesView(&c.settings); },
        [tables](SpecTablesView& v, const ShownTrace& s) {
            std::shared_ptr<const GpuDiagnoses> made;
            const GpuDiagnoses& d = diagnosesOf(s, made);
            v.setTables(diagnosisTables(d, tables(*s.trace, d)), s.description);
        },
        [](SpecTablesView& v, const QString& message) { v.clear(message); });
}

std::vector<ViewPage> analysisPages() {
    std::vector<ViewPage> pages;
    pages.push_back(analysisPage<OperatorsView>(
        View::Operators, "operators", Needs::Analysis,
        [](const ViewContext&) { return new OperatorsView; },
        [](OperatorsView& v, const ShownTrace& s) {
            v.setTrace(s.trace, s.description, s.analysis.full);
        },
        [](OperatorsView& v, const QString&) { v.clear(); }));
    pages.push_back(analysisPage<KernelsView>(
        View::Kernels, "kernels", Needs::Analysis,
        [](const ViewContext& c) { return new KernelsView(&c.settings); },
        [](KernelsView& v, const ShownTrace& s) { v.setAnalysis(s.analysis.full, s.description); },
        [](KernelsView& v, const QString& message) { v.setAnalysis(nullptr, message); }));
    pages.push_back(analysisPage<MemoryUsageView>(
        View::Memory, "memory", Needs::Memory,
        [](const ViewContext& c) { return new MemoryUsageView(&c.settings); },
        [](MemoryUsageView& v, const ShownTrace& s) {
            v.setTrace(s.trace, s.analysis.full, s.analysis.memory, s.description);
        },
        [](MemoryUsageView& v, const QString&) { v.clear(); }));
    pages.push_back(analysisPage<ModulesView>(
        View::Modules, "modules", Needs::Modules,
        [](const ViewContext&) { return new ModulesView; },
        [](ModulesView& v, const ShownTrace& s) {
            // Small traces and live captures come without their module view.
            v.setView(s.analysis.modules ? s.analysis.modules
                                         : std::make_shared<const ModuleView>(
                                               computeModuleView(*s.trace, s.analysis.full->tree)),
                      s.description);
        },
        [](ModulesView& v, const QString& message) { v.setView(nullptr, message); }));
    pages.push_back(analysisPage<RooflineView>(
        View::Roofline, "roofline", Needs::Trace,
        [](const ViewContext& c) { return new RooflineView(c.settings); },
        [](RooflineView& v, const ShownTrace& s) { v.setTrace(s.trace, s.description); },
        [](RooflineView& v, const QString&) { v.clear(); }));
    pages.push_back(tablesPage(View::Temporal, "temporal", [](const Trace&, const GpuDiagnoses& d) {
        return std::vector<table::TableSpec>{temporalTable({d.temporal})};
    }));
    pages.push_back(tablesPage(View::IdleTime, "idle", [](const Trace&, const GpuDiagnoses& d) {
        return std::vector<table::TableSpec>{idleTable({d.idle}), idleIntervalTable({d.idle})};
    }));
    pages.push_back(
        tablesPage(View::Launches, "launches", [](const Trace& trace, const GpuDiagnoses& d) {
            return std::vector<table::TableSpec>{launchSummaryTable({d.launches}),
                                                 launchOutlierTable({d.launches}),
                                                 outlierLaunchTable({&trace}, {d.launches}, 5000)};
        }));
    pages.push_back(
        tablesPage(View::KernelTypes, "kernel-types", [](const Trace&, const GpuDiagnoses& d) {
            return std::vector<table::TableSpec>{kernelTypeTable({d.kernel_types}),
                                                 commCompOverlapTable({d.kernel_types}),
                                                 kernelsByTypeTable({d.kernel_types})};
        }));
    pages.push_back(tablesPage(View::QueueLength, "queue", [](const Trace&, const GpuDiagnoses& d) {
        return std::vector<table::TableSpec>{queueLengthTable({d.queue})};
    }));
    pages.push_back(
        tablesPage(View::MemoryBandwidth, "memory-bw", [](const Trace&, const GpuDiagnoses& d) {
            return std::vector<table::TableSpec>{memoryBandwidthTable({d.memory_bw})};
        }));
    pages.push_back(
        tablesPage(View::Annotations, "annotations", [](const Trace&, const GpuDiagnoses& d) {
            // The kernels under the GPU ranges, or the CPU ranges' where the
            // trace has no GPU copies of them.
            const AnnotationBreakdown& kernels =
                d.gpu_annotations.empty() ? d.cpu_annotations : d.gpu_annotations;
            return std::vector<table::TableSpec>{annotationTable({d.gpu_annotations}),
                                                 annotationTable({d.cpu_annotations}),
                                                 annotatedKernelTable({kernels})};
        }));
    pages.push_back(tablesPage(
        View::KernelSequences, "kernel-sequences", [](const Trace&, const GpuDiagnoses& d) {
            return std::vector<table::TableSpec>{kernelSequenceTable({d.sequences}),
                                                 sequenceKernelTable({d.sequences})};
        }));
    pages.push_back(analysisPage<CriticalPathView>(
        View::CriticalPath, "critical-path", Needs::Diagnoses,
        [](const ViewContext& c) { return new CriticalPathView(&c.settings); },
        [](CriticalPathView& v, const ShownTrace& s) {
            std::shared_ptr<const GpuDiagnoses> made;
            diagnosesOf(s, made);
            v.setDiagnoses(s.trace, made ? made : s.analysis.diagnoses, s.description);
        },
        [](CriticalPathView& v, const QString& message) { v.clear(message); }));
    pages.push_back(analysisPage<QueryView>(
        View::Query, "query", Needs::Trace,
        [](const ViewContext& c) { return new QueryView(&c.settings); },
        [](QueryView& v, const ShownTrace& s) { v.setTrace(s.trace, s.description); },
        [](QueryView& v, const QString& message) { v.clear(message); }));
    return pages;
}

// The views the window fills itself: from a document, a run, or the runs folder.
std::vector<ViewPage> otherPages() {
    std::vector<ViewPage> pages;
    pages.push_back(
        page(View::Overview, "overview", [](const ViewContext&) { return new OverviewView; }));
    pages.push_back(page(View::Live, "live", [](const ViewContext&) { return new LiveView; }));
    // A run's view: with no document open it is where a started run shows.
    pages.back().applies = [](const OpenedDocument* doc) { return !doc || doc->run; };
    pages.push_back(page(View::Timeline, "timeline",
                         [](const ViewContext& c) { return new TimelineView(&c.settings); }));
    pages.back().clear = [](QWidget* w, const QString& message) {
        as<TimelineView>(w).setTrace(nullptr, message);
    };
    pages.back().applies = hasTrace;
    pages.push_back(
        page(View::Distributed, "distributed", [](const ViewContext&) { return new RanksView; }));
    pages.back().applies = [](const OpenedDocument* doc) {
        return doc && (doc->distributed || !doc->distributed_error.isEmpty());
    };
    pages.push_back(page(View::Snapshot, "snapshot",
                         [](const ViewContext& c) { return new SnapshotView(&c.settings); }));
    pages.back().clear = [](QWidget* w, const QString& message) {
        as<SnapshotView>(w).clear(message);
    };
    pages.back().applies = [](const OpenedDocument* doc) { return doc && doc->snapshot; };
    pages.push_back(page(View::MemoryCategories, "memory-categories", [](const ViewContext& c) {
        return new CategoryTimelineView(&c.settings);
    }));
    pages.back().clear = [](QWidget* w, const QString& message) {
        as<CategoryTimelineView>(w).clear(message);
    };
    pages.back().applies = [](const OpenedDocument* doc) { return doc && doc->categories; };
    pages.push_back(page(View::Diff, "diff", [](const ViewContext&) { return new TraceDiffView; }));
    pages.push_back(
        page(View::Runs, "runs", [](const ViewContext& c) { return new RunsView(c.settings); }));
    pages.push_back(page(View::Experiments, "experiments", [](const ViewContext& c) {
        return new ExperimentsView(c.settings, c.form, c.controller);
    }));
    return pages;
}

// Every entry, in the catalog's order.
std::vector<ViewPage> allPages() {
    std::map<std::string, ViewPage> by_name;
    for (std::vector<ViewPage> part : {analysisPages(), otherPages()})
        for (ViewPage& p : part)
            by_name.emplace(p.info->name, std::move(p));
    std::vector<ViewPage> pages;
    for (const views::ViewInfo& info : views::catalog()) {
        const auto found = by_name.find(info.name);
        if (found != by_name.end()) {
            pages.push_back(std::move(found->second));
            by_name.erase(found);
        } else if (info.surfaces & views::Gui) {
            throw std::logic_error(std::string("the view ") + info.name +
                                   " is offered in the GUI but has no page");
        }
    }
    return pages;
}

} // namespace

const std::vector<ViewPage>& viewPages() {
    static const std::vector<ViewPage> pages = allPages();
    return pages;
}

const ViewPage& viewPage(View view) {
    for (const ViewPage& p : viewPages())
        if (p.id == view) return p;
    throw std::logic_error("a View without a page");
}

} // namespace ts::gui
