#pragma once
// The Overview's "Diagnosis": the few findings of HTA's diagnoses worth a
// look first (how much the GPU idled and why, the worst launch outliers,
// where the kernel time goes), each citing its figures and naming the view
// that explains it: idle time, its main cause, launch outliers, a full
// launch queue, communication, then the likeliest fusion candidate.
#include <string>
#include <vector>

#include "analysis/GpuDiagnoses.h"

namespace ts {

struct DiagnosisFinding {
    std::string view;  // the catalog name of the view that explains it ("idle", ...)
    std::string title; // "GPU idle 53.6 %"
    std::string text;  // the figures, what they mean and what to try
    double share = 0;  // of the window (idle), the launches (outliers) or GPU time, 0..1
};

std::vector<DiagnosisFinding> summarizeDiagnoses(const Trace& trace, const GpuDiagnoses& d);

} // namespace ts
