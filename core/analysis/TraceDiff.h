#pragma once
// The Diff view: two traces (torch.profiler/Kineto traces, Trainscope's own,
// or one of each) compared operator by operator, kernel by kernel, category
// by category, as a tree (the TensorBoard plugin's diffrun) and as one step
// of each aligned for the timeline. Computed once into a value struct; the
// GUI and `trainscope-cli trace-diff` (report/TraceDiffReport) show it.
//
// Per-step figures: when both traces mark their steps, every time and call
// count is the trace's total divided by its number of steps (its step marks:
// ProfilerStep#N or Trainscope's own), so traces of different lengths
// compare; otherwise the totals (`per_step` says which). The categories are
// the Overview's means, over the steps it keeps.
//
// Noise: a row whose time moves by less than `threshold_ns` (the larger of
// 1 us and 1% of the longer mean step, TraceDiffOptions) is unchanged; such a
// change cannot move the step by a visible amount, and the trace's clock is
// microseconds anyway.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/DiffTree.h"
#include "analysis/KinetoEvents.h"
#include "trace/Trace.h"

namespace ts {

enum class DiffStatus : uint8_t {
    Added,        // only in B
    Removed,      // only in A
    MoreFrequent, // more calls per step in B (takes precedence over the time)
    LessFrequent,
    Slower, // same calls, more time in B (by at least the threshold)
    Faster,
    Unchanged,
};
// "added", "removed", "more frequent", "less frequent", "slower", "faster", "unchanged".
const char* toString(DiffStatus status);

// One operator (by name) or one kernel (by name) in both traces. Values are
// per step or totals (TraceDiff::per_step), times in ns.
struct DiffRow {
    std::string name;
    double calls_a = 0, calls_b = 0;
    // Operators: self times. Kernels: device_*: the kernel's total time, host_* = 0.
    double device_a_ns = 0, device_b_ns = 0;
    double host_a_ns = 0, host_b_ns = 0;
    // What the row adds to (or takes from) the step in B against A: the
    // device time when both traces have device time (TraceDiff::by_device),
    // else the host time. Kernels: always device time.
    double impact_ns = 0;
    DiffStatus status = DiffStatus::Unchanged;

    double timeA(bool by_device) const { return by_device ? device_a_ns : host_a_ns; }
    double timeB(bool by_device) const { return by_device ? device_b_ns : host_b_ns; }
};

// A category of the step, side by side: the GPU Overview's (Kernel, Memcpy,
// Memset, Communication, Runtime, DataLoader, CPU Exec, Other) for two Kineto
// traces, the step breakdown's phases (Data, Copy, Forward, Backward,
// Optimizer, Other) for two of Trainscope's own; "Total" last (the mean
// step). Traces of different kinds compare only their Total.
struct DiffCategory {
    std::string name;
    double a_ns = 0, b_ns = 0; // mean per step

    double deltaNs() const { return b_ns - a_ns; }
};

// One top-level node of an aligned step, relative to its step's start.
struct AlignedOp {
    std::string name;
    int64_t start_ns = 0, end_ns = 0;
    int32_t pair = -1;    // index into StepAlignment::pairs, -1 none
    bool changed = false; // its operator row changed, or (not an operator) its pair did
};

struct AlignedStep {
    size_t index = 0;                 // into the trace's steps (0-based)
    std::string label;                // "5" for ProfilerStep#5
    int64_t start_ns = 0, end_ns = 0; // in the trace
    std::vector<AlignedOp> ops;       // the step's top-level nodes, in order

    int64_t durationNs() const { return end_ns - start_ns; }
};

// One pair of the tree compare of the two aligned steps' top-level lists:
// a matched pair or the unmatched nodes between two matches (one side may
// be empty). Intervals are relative to each side's step start.
struct AlignedPair {
    std::string name_a, name_b; // DiffNodeSide::name
    bool matched = false;
    bool has_a = false, has_b = false;
    int64_t a_start_ns = 0, a_end_ns = 0, b_start_ns = 0, b_end_ns = 0;
    int64_t delta_ns = 0; // Σ total_duration B - A (device time, else host time)
    bool changed = false; // a side is empty or |delta| >= TraceDiff::threshold_ns
};

struct StepAlignment {
    AlignedStep a, b;
    // In order; without any match one pair of the two whole steps.
    std::vector<AlignedPair> pairs;
};

struct TraceDiffSide {
    std::string label;   // the file or run the caller named
    bool kineto = false; // a torch.profiler (Kineto) trace; else Trainscope's own (or legacy)
    bool has_steps = false;
    size_t steps = 0;   // steps the per-step figures divide by (1 without steps)
    double step_ns = 0; // mean step time
    bool has_device_time = false;
};

struct TraceDiff {
    TraceDiffSide a, b;
    bool per_step = false;  // rows and categories are per step (both traces have steps)
    bool by_device = false; // operator impact by device self time (both have device time)
    bool categories_comparable = false; // same kind of trace: all categories, else Total only
    double threshold_ns = 0;            // |delta| below this is unchanged

    std::vector<DiffCategory> categories;    // Total last
    std::vector<DiffRow> operators;          // by |impact| descending, then name
    std::vector<DiffRow> kernels;            // by |impact| descending, then name
    std::set<std::string> changed_operators; // operator names whose status is not unchanged
    DiffNode tree;                           // the plugin's tree compare of the whole traces
    StepAlignment alignment;

    double stepDeltaNs() const { return b.step_ns - a.step_ns; }
    // (B - A) / A; 0 when A has no step time.
    double stepChange() const { return a.step_ns > 0 ? stepDeltaNs() / a.step_ns : 0; }
};

struct TraceDiffOptions {
    std::string label_a = "A", label_b = "B";
    // The steps to align (0-based); none: each trace's median-duration step
    // (the earlier one of two middle steps). Out of range, or given for a
    // trace without steps: std::invalid_argument.
    std::optional<size_t> step_a, step_b;
    int64_t min_delta_ns = 1000; // the threshold is at least this
    double step_share = 0.01;    // ... and at least this share of the longer mean step
    GpuAnalysisOptions gpu;
};

TraceDiff computeTraceDiff(const Trace& a, const Trace& b, const TraceDiffOptions& options = {});

} // namespace ts
