#pragma once
// The views a large trace fills only when one of them is first shown: those
// of its analysis (ViewPage::show; today Operators, Kernels, Memory, Modules
// and Roofline), each computing what its ViewPage::needs names. Opening a trace of
// millions of events computes what the Overview and the Timeline show; the
// operator tree (Operators, Kernels, Memory, Modules) and the memory and
// module views (each the size of the trace's memory records or modules) wait
// until a tab needs them, are then computed off the GUI thread while the
// status bar says so, and stay with the document (OpenedDocument::deferred),
// so that showing the tab again, or another document's, is instant.
#include <functional>
#include <memory>
#include <set>

#include <QObject>
#include <QString>

#include "jobs/OneShot.h"
#include "shell/OpenedDocument.h"
#include "shell/Views.h"

namespace ts::gui {

class DeferredViews : public QObject {
    Q_OBJECT
public:
    // `fill` puts what the analysis holds into one tab (on the GUI thread).
    using Fill = std::function<void(View, const std::shared_ptr<const Trace>&,
                                    const QString& description, const DeferredAnalysis&)>;
    explicit DeferredViews(Fill fill, QObject* parent = nullptr);
    ~DeferredViews() override; // cancels a computation in flight and waits for it

    // Whether `have` holds what `view` shows.
    static bool ready(View view, const DeferredAnalysis& have);
    // The parts `view` needs that `have` lacks (off the GUI thread); the
    // others are null.
    static DeferredAnalysis complete(const Trace& trace, const DeferredAnalysis& have, View view,
                                     const CancelFlag* cancel = nullptr);

    // The shown document's deferred tabs wait for `pending` (nothing waits: null).
    void setPending(std::shared_ptr<const Trace> trace, const QString& description,
                    std::shared_ptr<DeferredAnalysis> pending);
    // A tab became current: fills it when it waits, computing what it needs first.
    void viewShown(View view);
    bool waiting(View view) const { return pending_ && waiting_.count(view) > 0; }
    bool computing() const { return job_.isRunning(); }

signals:
    void computingStarted(const QString& description);
    void computingFinished();

private:
    void onComputed(DeferredAnalysis made);

    Fill fill_;
    std::shared_ptr<const Trace> trace_;
    QString description_;
    std::shared_ptr<DeferredAnalysis> pending_;
    std::set<View> waiting_; // the shown document's tabs not filled yet
    // What the computation in flight is for: it may finish after another
    // document was shown, and then only completes its own document's record.
    std::shared_ptr<DeferredAnalysis> computing_for_;
    OneShot<DeferredAnalysis> job_; // last: cancelled and joined first
};

} // namespace ts::gui
