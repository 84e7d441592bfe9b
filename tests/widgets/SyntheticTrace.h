#pragma once
// Deterministic synthetic traces for the timeline tests and bench_timeline:
// lanes of training steps, each step nested into phases, operators and
// sub-operators, with backward nodes linked to their forward operators.
#include <cstdint>

#include "trace/Trace.h"

namespace ts::testing {

struct SyntheticTraceSpec {
    int64_t events = 10000; // approximate number of events
    int lanes = 4;
    uint32_t seed = 7;
    // FLOPs, shapes and sequence numbers on the operators, as Trainscope's
    // own profiler records them; false: names and times only, as most events
    // of a Kineto trace (bench_timeline --plain measures the store's floor).
    bool op_fields = true;
};

Trace makeSyntheticTrace(const SyntheticTraceSpec& spec);

// A small hand-made trace whose geometry the tests know exactly:
// lane 0: "step" [0, 1000) containing "aten::conv2d" [100, 400) containing
//         "aten::mm" [150, 250); "aten::relu" [500, 600); then
//         "ConvolutionBackward0" [700, 900) linked to aten::conv2d.
// lane 1: "worker" [0, 2000).
Trace makeTinyTrace();

} // namespace ts::testing
