#pragma once
// The Modules view of a trace (the TensorBoard plugin's, docs/gpu-traces.md):
// the nn.Module tree of a torch.profiler trace recorded with
// with_modules=True (or with_stack=True), each module with its calls and the
// host and device time spent in them. Computed once into a value struct that
// the CLI prints and the GUI shows as a tree; each row also lists its calls'
// time ranges so a view can select them on the timeline.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/DeviceOpTree.h"

namespace ts {

// One call of a module's forward: [start_ns, end_ns) relative to
// Trace::origin_ns, on a thread (Trace::lanes index).
struct ModuleCall {
    int64_t start_ns = 0, end_ns = 0;
    int32_t lane = -1;
};

// A module at one place of the tree (its path from the root), over all its
// calls there. Times in ns.
struct ModuleRow {
    std::string name;       // the class name, "nn.Module: " removed ("Linear")
    int64_t module_id = -1; // the profiler's "Python module id" (one per instance)
    int64_t occurrences = 0;
    int64_t operators = 0; // real operators called directly (not through a child module)
    int64_t host_total_ns = 0, host_self_ns = 0;
    // Kernels, memcpy and memset launched by its operators (total) and by
    // the operators it calls directly (self).
    int64_t device_total_ns = 0, device_self_ns = 0;
    std::vector<ModuleCall> calls; // in time order
    std::vector<ModuleRow> children;

    // The plugin's "mean duration": device time per call, or host time per
    // call for a module without device work.
    double avgNs() const {
        if (occurrences == 0) return 0;
        return double(device_total_ns > 0 ? device_total_ns : host_total_ns) / occurrences;
    }
};

struct ModuleView {
    std::vector<ModuleRow> roots; // top-level modules by name, children in order of first call
    std::string reason;           // why there is no tree ("" when there is one)
    bool empty() const { return roots.empty(); }
};

// `tree` gives the operators' host and device times; the modules come from
// trace.kineto.python_frames.
ModuleView computeModuleView(const Trace& trace, const DeviceOpTree& tree);
// Builds the operator tree first.
ModuleView computeModuleView(const Trace& trace, const GpuAnalysisOptions& options = {});

} // namespace ts
