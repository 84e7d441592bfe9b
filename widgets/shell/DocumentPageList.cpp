// The pages of the documents that are not a trace's analysis (shell/
// ViewRegistry.h): the Overview (a trace's, or a run's phases), the Live
// charts of a run, the ranks of a folder, allocator snapshots, memory
// timelines, and the pages that show what is open or was run (Diff, Runs,
// Experiments).
#include "diff/TraceDiffView.h"
#include "gpu/OverviewView.h"
#include "live/LiveView.h"
#include "memory/CategoryTimelineView.h"
#include "memory/SnapshotView.h"
#include "ranks/RanksView.h"
#include "runs/RunsView.h"
#include "shell/DocumentSelector.h"
#include "shell/PageKinds.h"
#include "shell/TracePages.h"
#include "studies/ExperimentsView.h"
#include "training/RunController.h"
#include "training/StudyActivity.h"

namespace ts::gui::pages {
namespace {

QString qPath(const OpenedDocument& doc) {
    return QString::fromStdString(doc.path);
}

ViewPage overview() {
    ViewPage p = documentPage<OverviewView>(
        "overview",
        [](const ViewContext& c) {
            auto* v = new OverviewView;
            DocumentSelection* selection = &c.selection;
            QObject::connect(v, &OverviewView::viewRequested, selection,
                             &DocumentSelection::requestView);
            v->followSelection(selection);
            return v;
        },
        [](OverviewView& v, const ShownDocument& s) { v.showDocument(s.doc); },
        [](OverviewView& v, const QString&) { v.clear(); });
    p.grown = p.show; // a large trace's diagnoses fill the Diagnosis box
    p.offered_without_document = true;
    return p;
}

ViewPage live() {
    ViewPage p = documentPage<LiveView>(
        "live",
        [](const ViewContext& c) {
            auto* v = new LiveView;
            DocumentSelection* selection = &c.selection;
            QObject::connect(&c.controller, &RunController::runStarted, v,
                             [v, selection](const RunLaunch& launch) {
                                 v->beginRun(launch);
                                 selection->requestView(QStringLiteral("live"));
                             });
            QObject::connect(&c.controller, &RunController::updated, v, &LiveView::append);
            QObject::connect(&c.controller, &RunController::runFinished, v, &LiveView::finishRun);
            return v;
        },
        // A run in progress charts itself (RunController's updates).
        [](LiveView& v, const ShownDocument& s) {
            if (s.doc.run) v.showRun(*s.doc.run);
        },
        nullptr);
    p.offered_without_document = true; // where a run started then shows
    p.shortcut = "Ctrl+1";
    return p;
}

ViewPage distributed() {
    return documentPage<RanksView>(
        "distributed",
        [](const ViewContext& c) {
            auto* v = new RanksView;
            v->followSelection(&c.selection);
            QObject::connect(v, &RanksView::openRequested, v, c.open);
            return v;
        },
        [](RanksView& v, const ShownDocument& s) {
            v.setTrace(s.doc.trace);
            v.setSpans(s.doc.distributed, qPath(s.doc),
                       QString::fromStdString(s.doc.distributed_error));
        },
        [](RanksView& v, const QString&) { v.clear(); });
}

ViewPage snapshot() {
    return documentPage<SnapshotView>(
        "snapshot", [](const ViewContext& c) { return new SnapshotView(&c.settings); },
        [](SnapshotView& v, const ShownDocument& s) {
            v.setSnapshot(s.doc.snapshot, qPath(s.doc));
        },
        [](SnapshotView& v, const QString& message) { v.clear(message); });
}

ViewPage memoryCategories() {
    return documentPage<CategoryTimelineView>(
        "memory-categories",
        [](const ViewContext& c) { return new CategoryTimelineView(&c.settings); },
        [](CategoryTimelineView& v, const ShownDocument& s) {
            v.setTimeline(s.doc.categories, qPath(s.doc));
        },
        [](CategoryTimelineView& v, const QString& message) { v.clear(message); });
}

// Diff chooses A and B among every open document.
ViewPage diff() {
    return page("diff", [](const ViewContext& c) {
        auto* v = new TraceDiffView;
        DocumentSelector* documents = &c.documents;
        QObject::connect(documents, &DocumentSelector::listChanged, v, [v, documents] {
            std::vector<DiffDocument> list;
            for (int i = 0; i < documents->count(); ++i) {
                const OpenedDocument& doc = documents->at(i);
                list.push_back(
                    DiffDocument{QString::fromStdString(doc.title()), qPath(doc), doc.trace});
            }
            v->setDocuments(std::move(list));
        });
        return v;
    });
}

ViewPage runs() {
    ViewPage p = page("runs", [](const ViewContext& c) {
        auto* v = new RunsView(c.settings);
        QObject::connect(v, &RunsView::openRequested, v, c.open);
        QObject::connect(&c.controller, &RunController::runFinished, v,
                         [v](const RunOutcome& outcome) {
                             if (!outcome.runDir.isEmpty()) v->addRun(outcome.runDir);
                         });
        v->rescan();
        return v;
    });
    p.busy = [](QWidget* w) { return as<RunsView>(w).isScanning(); };
    p.shortcut = "Ctrl+4";
    return p;
}

// A sweep, ladder or pruning study's directory opened as a document shows
// here; the view keeps what it shows for any other document.
ViewPage experiments() {
    ViewPage p = documentPage<ExperimentsView>(
        "experiments",
        [](const ViewContext& c) {
            auto* v = new ExperimentsView(c.settings, c.form, c.controller);
            QObject::connect(v, &ExperimentsView::openRunRequested, v, c.open);
            StudyActivity* studies = &c.studies;
            QObject::connect(v, &ExperimentsView::runningChanged, studies,
                             &StudyActivity::setRunning);
            QObject::connect(studies, &StudyActivity::stopRequested, v, &ExperimentsView::stop);
            return v;
        },
        [](ExperimentsView& v, const ShownDocument& s) {
            if (s.doc.experiment) v.showReport(*s.doc.experiment, qPath(s.doc));
        },
        nullptr);
    p.shortcut = "Ctrl+5";
    return p;
}

} // namespace

std::vector<ViewPage> otherPages() {
    return {overview(),         live(), distributed(), snapshot(),
            memoryCategories(), diff(), runs(),        experiments()};
}

} // namespace ts::gui::pages
