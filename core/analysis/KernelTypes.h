#pragma once
// Holistic Trace Analysis' GPU kernel breakdown: how much of a rank's time
// each kernel type (computation, communication, memory) ran, alone or
// overlapping another (a union per type, then a sweep over their
// combinations, so overlap shows), and every kernel's count, total, mean,
// spread, by type.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/DeviceActivity.h"

namespace ts {

// A combination of kernel types running at once: bit 1 computation, 2
// communication, 4 memory (HTA's order).
struct TypeOverlap {
    uint8_t types = 0;
    int64_t ns = 0;
};
// "COMPUTATION", "COMPUTATION overlapping COMMUNICATION", ... (HTA's labels).
std::string overlapLabel(uint8_t types);

struct KernelTypeRow {
    std::string name;
    KernelType type = KernelType::Computation;
    int64_t count = 0, total_ns = 0, max_ns = 0, min_ns = 0;
    double mean_ns = 0, std_ns = 0; // sample deviation, 0 for one kernel
    int32_t longest = -1;           // its longest run (Trace::events index)
};

struct KernelTypeBreakdown {
    int64_t rank = 0;
    std::vector<TypeOverlap> overlaps;  // by time, the longest first
    std::vector<KernelTypeRow> kernels; // by type, then total, the longest first
    int64_t totalNs() const;
    // HTA's communication/computation overlap: the communication time (union
    // of its kernels) that computation kernels ran beside, and all of it.
    int64_t communicationNs() const;
    int64_t overlappedCommunicationNs() const;
    // Their ratio, 0..1; NaN without communication (HTA's too).
    double commCompOverlap() const;
};

KernelTypeBreakdown kernelTypeBreakdown(const Trace& trace, const DeviceActivities& activity);

} // namespace ts
