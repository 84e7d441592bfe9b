#include "sources/DocumentAnalysis.h"

namespace ts::sources {

bool DocumentAnalysis::has(AnalysisNeed need) const {
    switch (need) {
    case AnalysisNeed::Trace:
        return true;
    case AnalysisNeed::Analysis:
        return full != nullptr;
    case AnalysisNeed::Memory:
        return full && memory;
    case AnalysisNeed::Modules:
        return full && modules;
    case AnalysisNeed::Diagnoses:
        return diagnoses != nullptr;
    }
    return true;
}

void DocumentAnalysis::merge(const DocumentAnalysis& made) {
    if (!full && made.full) {
        full = made.full;
        overview.reset(); // the full analysis holds the Overview's too
    }
    if (made.memory) memory = made.memory;
    if (made.modules) modules = made.modules;
    if (made.diagnoses) diagnoses = made.diagnoses;
}

DocumentAnalysis completeAnalysis(const Trace& trace, const CancelFlag* cancel) {
    DocumentAnalysis all;
    GpuAnalysisOptions options;
    options.cancel = cancel;
    all.full = std::make_shared<const GpuTraceAnalysis>(analyzeGpuTrace(trace, options));
    checkCancel(cancel);
    all.memory = std::make_shared<const MemoryView>(computeMemoryView(trace, all.full->tree));
    all.modules = std::make_shared<const ModuleView>(computeModuleView(trace, all.full->tree));
    all.diagnoses = std::make_shared<const GpuDiagnoses>(diagnoseGpu(trace, all.full.get()));
    return all;
}

DocumentAnalysis completeFor(const Trace& trace, const DocumentAnalysis& have, AnalysisNeed need,
                             const CancelFlag* cancel) {
    DocumentAnalysis made;
    if (need == AnalysisNeed::Trace || have.has(need)) return made;
    if (need == AnalysisNeed::Diagnoses && !have.full) {
        // A 1 GB trace's full analysis takes seconds and gigabytes.
        made.diagnoses = std::make_shared<const GpuDiagnoses>(
            have.launches ? diagnoseGpu(trace, *have.launches) : diagnoseGpu(trace));
        return made;
    }
    GpuAnalysisOptions options;
    options.cancel = cancel;
    made.full = have.full
                    ? have.full
                    : std::make_shared<const GpuTraceAnalysis>(analyzeGpuTrace(trace, options));
    checkCancel(cancel);
    if (need == AnalysisNeed::Memory && !have.memory)
        made.memory = std::make_shared<const MemoryView>(computeMemoryView(trace, made.full->tree));
    if (need == AnalysisNeed::Modules && !have.modules)
        made.modules =
            std::make_shared<const ModuleView>(computeModuleView(trace, made.full->tree));
    if (need == AnalysisNeed::Diagnoses)
        made.diagnoses = std::make_shared<const GpuDiagnoses>(diagnoseGpu(trace, made.full.get()));
    return made;
}

} // namespace ts::sources
