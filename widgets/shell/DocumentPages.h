#pragma once
// Shows a document in every view page (shell/ViewRegistry.h), through one
// path: a page that reads what the document holds is offered and shown it,
// the others are emptied and hidden. A large trace's lazy pages (Operators,
// Kernels, Memory, Modules, the diagnoses, ...) wait until first shown: what
// they need of the analysis is then made off the GUI thread while the status
// bar says so, kept with the document for every copy of it, and handed to
// the pages already showing it that take more (`grown`: the Overview's
// Diagnosis box, the timeline's idle shading). The window names no page.
#include <memory>
#include <optional>
#include <set>

#include <QObject>
#include <QString>

#include "jobs/OneShot.h"
#include "shell/ViewRegistry.h"
#include "shell/ViewTabs.h"

namespace ts::gui {

class DocumentPages : public QObject {
    Q_OBJECT
public:
    // Makes every page with `context` into `tabs`.
    DocumentPages(ViewTabs& tabs, const ViewContext& context, QObject* parent = nullptr);
    ~DocumentPages() override; // cancels a computation in flight and waits for it

    // Shows `document` (null: none open) in every page.
    void show(const OpenedDocument* document);
    // The tables that can be are shown as B − A against `baseline` (null:
    // none; the shown document itself: none), and shown again.
    void setBaseline(const OpenedDocument* baseline);
    const OpenedDocument* baseline() const;
    const OpenedDocument* shown() const { return shown_ ? &*shown_ : nullptr; }
    // What the pages say the shown document is ("trace.json: 12 events ...").
    QString description() const { return description_; }

    // A tab became current: fills it when it waits, computing what it needs first.
    void pageShown(ViewId view);
    bool waiting(ViewId view) const { return waiting_.count(view) > 0; }
    bool computing() const { return job_.isRunning(); }
    // Computing, or a page's own background work (a query, the runs' scan).
    bool busy() const;

signals:
    void computingStarted(const QString& description);
    void computingFinished();

private:
    ShownDocument shownDocument() const { return ShownDocument{*shown_, description_, baseline()}; }
    // The document whose analysis `page` waits for: the shown one, or the
    // baseline it is compared with; null: neither.
    const OpenedDocument* lacking(const ViewPage& page) const;
    void showPage(const ViewPage& page, bool offered);
    void onComputed(DocumentAnalysis made);

    ViewTabs& tabs_;
    std::optional<OpenedDocument> shown_; // a copy: shares the trace and the analysis
    std::optional<OpenedDocument> baseline_;
    QString description_;
    std::set<ViewId> waiting_; // the shown document's lazy pages not filled yet
    // What the computation in flight is for: it may finish after another
    // document was shown, and then only completes its own document's analysis.
    std::shared_ptr<DocumentAnalysis> computing_for_;
    ViewId computing_view_ = nullptr;
    OneShot<DocumentAnalysis> job_; // last: cancelled and joined first
};

// "trace.json: 1200 events on 4 lanes (torch.profiler (kineto))", or why a
// document has no trace, or how to open one (null).
QString describeDocument(const OpenedDocument* document);

} // namespace ts::gui
