#pragma once
// Holistic Trace Analysis' user-annotation breakdown: the time of each
// record_function range (its GPU copy, gpu_user_annotation, or the CPU
// range itself), and the kernels under each, with their GPU time. A kernel
// belongs to the shortest GPU annotation it overlaps on its own stream (as
// in HTA); for CPU annotations, to the innermost one around the runtime call
// that launched it (HTA only attributes kernels to GPU annotations).
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/DeviceActivity.h"

namespace ts {

enum class AnnotationSide : uint8_t {
    Gpu, // gpu_user_annotation: the range as the GPU ran it (HTA's default)
    Cpu, // user_annotation: the range on its CPU thread (use_gpu_annotation=False)
};
const char* toString(AnnotationSide side); // "gpu", "cpu"

struct AnnotationOptions {
    AnnotationSide side = AnnotationSide::Gpu;
    // Annotation times rounded as HTA rounds them (pass the same activity
    // rounding, ActivityOptions::hta_rounding): for the comparison with HTA.
    bool hta_rounding = false;
};

// One annotation name: its instances' durations and the kernels under them.
struct AnnotationRow {
    std::string name;
    int64_t count = 0, total_ns = 0, max_ns = 0, min_ns = 0;
    double mean_ns = 0, std_ns = 0;     // sample deviation, 0 for one instance
    int64_t kernels = 0, kernel_ns = 0; // the device work attributed to it
    int32_t longest = -1;               // its longest instance (Trace::events index)
};

// One kernel name under one annotation name.
struct AnnotatedKernelRow {
    std::string annotation, kernel;
    int64_t count = 0, total_ns = 0, max_ns = 0;
    int32_t longest = -1; // its longest run (Trace::events index)
};

struct AnnotationBreakdown {
    int64_t rank = 0;
    AnnotationSide side = AnnotationSide::Gpu;
    std::vector<AnnotationRow> annotations;      // by total time, the longest first
    std::vector<AnnotatedKernelRow> kernels;     // by annotation as above, then kernel time
    int64_t unannotated = 0, unannotated_ns = 0; // device work under no annotation
    // Per DeviceActivities::events entry: the annotation instance it was
    // given (Trace::events index), -1 none (HTA's kernels with annotations).
    std::vector<int32_t> label;
    bool empty() const { return annotations.empty(); }
};

AnnotationBreakdown userAnnotations(const Trace& trace, const DeviceActivities& activity,
                                    const AnnotationOptions& options = {});

} // namespace ts
