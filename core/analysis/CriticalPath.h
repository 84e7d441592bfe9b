#pragma once
// The critical path of a step (or an annotation's instance, or the whole
// trace) and what-if: the longest path through the window's graph
// (analysis/CriticalPathGraph.h), what bounds it (CPU, GPU compute,
// communication, launch and kernel-to-kernel overhead, data loading), which
// operators and kernels lie on it, and what the path would become with some
// of them faster: the same graph with their edges scaled, its longest path
// recomputed. The ranked list halves each of the path's top items in turn.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/CriticalPathGraph.h"

namespace ts {

struct CpWindowChoice {
    int64_t step = -1;      // ProfilerStep#N, by its number
    std::string annotation; // events whose name contains it, on CPU threads
    int64_t instance = 0;   // which of them, 0 = the first (by start)
    bool whole_trace = false;
    // None of these: the first ProfilerStep, or the whole trace without one.
};

// The window asked for; std::nullopt and `error` naming what was asked and
// what exists ("step 12 is not in the trace; it has steps 3 to 7").
std::optional<CpWindow> chooseWindow(const Trace& trace, const CpWindowChoice& choice,
                                     std::string& error);

// Every step of the trace (its ProfilerStep#N ranges on CPU threads, by
// start, or Trainscope's own steps), in one pass.
std::vector<CpWindow> stepWindows(const Trace& trace);

// "kernel:NAME=0.5", "op:NAME=0", "category:launch_overhead=0": the edges of
// the kernels or operators with that name (exact, or else containing it),
// or of a bound category, take `factor` times their time.
struct WhatIfFactor {
    enum class Target : uint8_t { Kernel, Operator, Category };
    Target target = Target::Kernel;
    std::string name;
    BoundBy category = BoundBy::None;
    double factor = 1;
};
// Parses one factor; false with `error` naming what is wrong.
bool parseWhatIf(const std::string& text, WhatIfFactor& out, std::string& error);
std::string describe(const WhatIfFactor& factor); // "kernel sgemm x0.5"

struct CpPath {
    int64_t length_ns = 0;
    std::vector<int32_t> edges; // graph edge indices, in path order
};
// The longest path, with the edges' weights or `weights` (one per edge).
CpPath longestPath(const CpGraph& graph, const std::vector<int64_t>* weights = nullptr);

// Time of the path per bound category, operator or kernel.
struct CpShare {
    std::string name; // the category ("cpu_bound") or event name
    BoundBy bound = BoundBy::None;
    bool kernel = false;  // a device event (else a CPU event)
    int64_t ns = 0;       // on the path
    double pct = 0;       // of the path's length
    double step_pct = 0;  // of the window
    size_t events = 0;    // distinct events of that name on the path
    int32_t longest = -1; // the event with most time on the path
};

// A stretch of the path that one event's time (or a delay) accounts for.
struct CpSegment {
    int32_t event = -1; // attributed event; for launch delays the kernel launched
    CpEdgeType type = CpEdgeType::Operator;
    BoundBy bound = BoundBy::None;
    int64_t start = 0, ns = 0; // where on the timeline, and how long
};

struct WhatIfResult {
    std::vector<WhatIfFactor> factors;
    std::string label;    // describe() of the factors
    int64_t path_ns = 0;  // the new path's length
    int64_t saved_ns = 0; // the old length minus the new one
    int64_t step_ns = 0;  // the window's duration minus saved_ns
    std::vector<CpShare> breakdown;
    std::vector<CpSegment> segments; // the new path, in order
};

struct CriticalPathReport {
    CpGraph graph;
    CpPath path;
    int64_t step_ns = 0; // the window's duration
    // How far the path's end lies past the window's end (0 when it does
    // not). The window is a CPU range, but the kernels its calls launched
    // run on after it, and the path follows them (as HTA's does): the path
    // can then be longer than the window, and its shares of the window
    // (CpShare::step_pct) sum past 100%.
    int64_t past_window_end_ns = 0;
    std::vector<CpShare> breakdown;      // by bound, largest first
    std::vector<CpShare> operators;      // CPU events on the path, by name, largest first
    std::vector<CpShare> kernels;        // device events on the path, by name, largest first
    std::vector<CpSegment> segments;     // the path's stretches that carry time, in order
    std::optional<WhatIfResult> what_if; // the factors asked for
    std::vector<WhatIfResult> ranked;    // each top item halved, most saved first
};

struct CriticalPathOptions {
    CpGraphOptions graph;
    std::vector<WhatIfFactor> what_if;
    size_t ranked_items = 10; // operators and kernels halved for the ranked list
};

CriticalPathReport analyseCriticalPath(const Trace& trace, const LaunchIndex& launches,
                                       const CpWindow& window,
                                       const CriticalPathOptions& options = {});

// Evaluates factors on a report's graph. Throws std::invalid_argument when a
// factor's kernel or operator is not on the graph.
WhatIfResult whatIf(const Trace& trace, const CriticalPathReport& report,
                    const std::vector<WhatIfFactor>& factors);

} // namespace ts
