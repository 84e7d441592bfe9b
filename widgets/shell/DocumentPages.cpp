#include "shell/DocumentPages.h"

#include <utility>

#include <QFileInfo>

#include "sources/SourceRegistry.h"

namespace ts::gui {

QString describeDocument(const OpenedDocument* doc) {
    if (!doc) return QObject::tr("No document open: File ▸ Open Trace or Open Run.");
    if (!doc->label.empty()) return QString::fromStdString(doc->label);
    if (doc->trace) {
        const size_t lanes = doc->trace->lanes.size();
        return QObject::tr("%1: %2 events on %3 (%4)")
            .arg(QString::fromStdString(doc->trace_path))
            .arg(doc->trace->events.size())
            .arg(lanes == 1 ? QObject::tr("1 lane") : QObject::tr("%1 lanes").arg(lanes))
            .arg(QString::fromStdString(doc->trace->source));
    }
    if (doc->run)
        return QObject::tr("No trace: %1")
            .arg(doc->trace_error.empty() ? QObject::tr("this run was not profiled")
                                          : QString::fromStdString(doc->trace_error));
    return QObject::tr("No trace: %1 is %2.")
        .arg(QFileInfo(QString::fromStdString(doc->path)).fileName(),
             doc->source ? QString::fromStdString(sources::describe(*doc->source))
                         : QObject::tr("not a trace"));
}

QString ShownDocument::baselineTitle() const {
    return baseline ? QString::fromStdString(baseline->title()) : QString();
}

DocumentPages::DocumentPages(ViewTabs& tabs, const ViewContext& context, QObject* parent)
    : QObject(parent), tabs_(tabs),
      job_([this](DocumentAnalysis made) { onComputed(std::move(made)); }) {
    for (const ViewPage& page : viewPages())
        tabs_.addView(page.info, page.create(context));
    show(nullptr); // nothing open yet
    connect(&tabs_, &ViewTabs::currentViewChanged, this, &DocumentPages::pageShown);
}

DocumentPages::~DocumentPages() = default;

void DocumentPages::show(const OpenedDocument* document) {
    if (document)
        shown_ = *document;
    else
        shown_.reset();
    description_ = describeDocument(document);
    waiting_.clear();
    for (const ViewPage& page : viewPages())
        showPage(page, page.appliesTo(document));
    pageShown(tabs_.currentView());
}

void DocumentPages::showPage(const ViewPage& page, bool offered) {
    tabs_.setOffered(page.info, offered);
    QWidget* widget = tabs_.widget(page.info);
    if (!shown_ || !offered) {
        if (page.clear) page.clear(widget, description_);
        return;
    }
    if (!page.show) return;
    // A large trace (or one compared with a large trace): when first shown.
    const bool deferred = shown_->deferred || (baseline() && baseline()->deferred);
    if (page.lazy && deferred) {
        waiting_.insert(page.info);
        page.pending(widget, tr("%1\nThis view is analysed when it is first shown (a large "
                                "trace opens with its Overview and Timeline).")
                                 .arg(description_));
        return;
    }
    page.show(widget, shownDocument());
}

void DocumentPages::setBaseline(const OpenedDocument* baseline) {
    if (baseline)
        baseline_ = *baseline;
    else
        baseline_.reset();
    if (!shown_) return show(nullptr);
    const OpenedDocument again = *shown_; // show() replaces shown_
    show(&again);
}

const OpenedDocument* DocumentPages::baseline() const {
    const bool other = baseline_ && baseline_->trace && shown_ &&
                       (baseline_->path != shown_->path || baseline_->label != shown_->label);
    return other ? &*baseline_ : nullptr;
}

const OpenedDocument* DocumentPages::lacking(const ViewPage& page) const {
    if (!shown_->analysis->has(page.needs)) return &*shown_;
    const OpenedDocument* base = baseline();
    return base && !base->analysis->has(page.needs) ? base : nullptr;
}

void DocumentPages::pageShown(ViewId view) {
    if (!view || !waiting(view)) return;
    const ViewPage& page = *findViewPage(QString::fromLatin1(view->name));
    const OpenedDocument* lacks = lacking(page);
    if (!lacks) {
        waiting_.erase(view);
        page.show(tabs_.widget(view), shownDocument());
        return;
    }
    if (job_.isRunning()) return; // computingFinished brings the current tab back here
    computing_for_ = lacks->analysis;
    computing_view_ = view;
    const QString what = lacks == &*shown_ ? description_ : describeDocument(lacks);
    emit computingStarted(what);
    page.pending(tabs_.widget(view), tr("%1\nAnalysing it for this tab …").arg(what));
    job_.start([trace = lacks->trace, have = *lacks->analysis,
                need = page.needs](const CancelFlag& cancel) {
        return sources::completeFor(*trace, have, need, &cancel);
    });
}

void DocumentPages::onComputed(DocumentAnalysis made) {
    const ViewId view = std::exchange(computing_view_, nullptr);
    if (const std::shared_ptr<DocumentAnalysis> target = std::move(computing_for_)) {
        target->merge(made);
        if (shown_ && shown_->analysis == target)
            for (const ViewPage& page : viewPages())
                if (page.grown && !waiting(page.info) && page.appliesTo(&*shown_))
                    page.grown(tabs_.widget(page.info), shownDocument());
        const ViewPage& page = *findViewPage(QString::fromLatin1(view->name));
        if (!target->has(page.needs) && waiting(view)) { // stopped: not again and again
            waiting_.erase(view);
            page.pending(tabs_.widget(view),
                         tr("%1\nThe analysis for this view stopped; open the document "
                            "again to retry.")
                             .arg(description_));
        }
    }
    emit computingFinished();
    pageShown(tabs_.currentView()); // another page may be waiting now
}

bool DocumentPages::busy() const {
    if (computing()) return true;
    for (const ViewPage& page : viewPages())
        if (page.busy && page.busy(tabs_.widget(page.info))) return true;
    return false;
}

} // namespace ts::gui
