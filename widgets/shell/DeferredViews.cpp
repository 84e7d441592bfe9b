#include "shell/DeferredViews.h"

#include "shell/ViewRegistry.h"

namespace ts::gui {

DeferredViews::DeferredViews(Fill fill, QObject* parent)
    : QObject(parent), fill_(std::move(fill)),
      job_([this](DeferredAnalysis made) { onComputed(std::move(made)); }) {}

DeferredViews::~DeferredViews() = default;

bool DeferredViews::ready(View view, const DeferredAnalysis& have) {
    switch (viewPage(view).needs) {
    case Needs::Trace:
        return true;
    case Needs::Analysis:
        return have.full != nullptr;
    case Needs::Memory:
        return have.full && have.memory;
    case Needs::Modules:
        return have.full && have.modules;
    case Needs::Diagnoses:
        return have.diagnoses != nullptr;
    }
    return true;
}

DeferredAnalysis DeferredViews::complete(const Trace& trace, const DeferredAnalysis& have,
                                         View view, const CancelFlag* cancel) {
    const Needs needs = viewPage(view).needs;
    if (needs == Needs::Diagnoses && !have.full) {
        // The launches suffice: no full analysis (seconds and gigabytes on
        // a 1 GB trace) for HTA's diagnoses.
        DeferredAnalysis made;
        made.diagnoses = std::make_shared<const GpuDiagnoses>(
            have.launches ? diagnoseGpu(trace, *have.launches) : diagnoseGpu(trace));
        return made;
    }
    GpuAnalysisOptions options;
    options.cancel = cancel;
    DeferredAnalysis made;
    made.full = have.full
                    ? have.full
                    : std::make_shared<const GpuTraceAnalysis>(analyzeGpuTrace(trace, options));
    checkCancel(cancel);
    if (needs == Needs::Memory && !have.memory)
        made.memory = std::make_shared<const MemoryView>(computeMemoryView(trace, made.full->tree));
    if (needs == Needs::Modules && !have.modules)
        made.modules =
            std::make_shared<const ModuleView>(computeModuleView(trace, made.full->tree));
    if (needs == Needs::Diagnoses && !have.diagnoses)
        made.diagnoses = std::make_shared<const GpuDiagnoses>(diagnoseGpu(trace, made.full.get()));
    return made;
}

void DeferredViews::setPending(std::shared_ptr<const Trace> trace, const QString& description,
                               std::shared_ptr<DeferredAnalysis> pending) {
    trace_ = std::move(trace);
    description_ = description;
    pending_ = std::move(pending);
    waiting_.clear();
    if (!pending_) return;
    for (const ViewPage& page : viewPages())
        if (page.showsAnalysis()) waiting_.insert(page.id);
}

void DeferredViews::viewShown(View view) {
    if (!waiting(view)) return;
    if (ready(view, *pending_)) {
        waiting_.erase(view);
        fill_(view, trace_, description_, *pending_);
        return;
    }
    if (job_.isRunning()) return; // computingFinished brings the current tab back here
    computing_for_ = pending_;
    emit computingStarted(description_);
    job_.start([trace = trace_, have = *pending_, view](const CancelFlag& cancel) {
        return complete(*trace, have, view, &cancel);
    });
}

void DeferredViews::onComputed(DeferredAnalysis made) {
    if (const std::shared_ptr<DeferredAnalysis> target = std::move(computing_for_)) {
        if (!target->full && made.full) { // none: the work failed
            target->full = made.full;
            target->overview.reset(); // the full analysis holds the Overview's too
        }
        if (made.memory) target->memory = made.memory;
        if (made.modules) target->modules = made.modules;
        if (made.diagnoses) target->diagnoses = made.diagnoses;
    }
    emit computingFinished(); // the window shows its current tab again (viewShown)
}

} // namespace ts::gui
