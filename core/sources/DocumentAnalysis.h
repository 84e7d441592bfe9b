#pragma once
// What the views of a document's trace are shown from, computed once off the
// thread that shows them and shared by every copy of the document: the GPU
// analysis (the Overview's alone for a large trace until a view needs the
// full one), the memory and module views, HTA's diagnoses and the launch
// links the diagnoses need. A view names what it needs (AnalysisNeed); what
// a large trace lacks is completed when such a view is first shown
// (completeFor), off the GUI thread, and kept here.
#include <memory>

#include "analysis/GpuDiagnoses.h"
#include "analysis/GpuTraceAnalysis.h"
#include "analysis/MemoryView.h"
#include "analysis/ModuleView.h"
#include "util/Cancel.h"

namespace ts::sources {

// What of a trace's analysis a view needs beyond the trace itself.
enum class AnalysisNeed {
    Trace,     // the trace alone (its operator table)
    Analysis,  // the full GPU analysis
    Memory,    // and the memory view
    Modules,   // and the module view
    Diagnoses, // HTA's diagnoses
};

struct DocumentAnalysis {
    // What the Overview shows until `full` is made (GpuAnalysisScope::Overview).
    std::shared_ptr<const GpuTraceAnalysis> overview;
    std::shared_ptr<const GpuTraceAnalysis> full;
    std::shared_ptr<const MemoryView> memory;
    std::shared_ptr<const ModuleView> modules;
    std::shared_ptr<const GpuDiagnoses> diagnoses;
    // The trace's launch links (the timeline's, from the Overview's analysis
    // or its cache): HTA's diagnoses need these alone, so a large trace's
    // are made without the full analysis (null: found again).
    std::shared_ptr<const LaunchIndex> launches;

    // The full analysis once made (it holds the Overview's too), the Overview's until then.
    std::shared_ptr<const GpuTraceAnalysis> analysis() const { return full ? full : overview; }
    bool has(AnalysisNeed need) const;
    // Takes what `made` adds (the full analysis replaces the Overview's).
    void merge(const DocumentAnalysis& made);
};

// Everything (off the GUI thread); never throws for a readable trace but
// Cancelled, once `cancel` is requested.
DocumentAnalysis completeAnalysis(const Trace& trace, const CancelFlag* cancel = nullptr);
// The parts `need` asks for that `have` lacks (the others null): for HTA's
// diagnoses of a large trace the launches suffice, no full analysis.
DocumentAnalysis completeFor(const Trace& trace, const DocumentAnalysis& have, AnalysisNeed need,
                             const CancelFlag* cancel = nullptr);

} // namespace ts::sources
