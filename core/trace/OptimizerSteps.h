#pragma once
// The steps of a trace that marks none, found from its optimizer's ranges.
// A PyTorch process traced on demand (KINETO_USE_DAEMON=1: dynolog or
// Trainscope asks libkineto for a trace at a poll) records no ProfilerStep#N
// ranges, but every optimizer.step() is a user_annotation
// "Optimizer.step#<class>.step" on the thread that called it (Kineto counts
// its iterations by the same call). So a step ends where such a range ends,
// and the next one starts there.
//
// What comes before the first of these ends is no step: the trace may have
// started anywhere in that iteration. A duration-triggered trace starts when
// the request arrives, and the "Iteration Start: PyTorch Profiler" instant
// tells nothing: Kineto writes it at the start of every trace's span,
// torch.profiler's own traces and duration-triggered ones included. What
// comes after the last end is an iteration the trace cut. The events there
// stay in the trace, outside every step.
#include <string>

#include "trace/Trace.h"

namespace ts {

// When `trace` has no steps and one CPU thread has at least two outermost
// Optimizer.step ranges: fills trace.steps (numbered 0, 1, ... in trace
// order), trace.steps_from (the range's name) and a note saying so. Else
// leaves the trace as it is. Called before Trace::finalize, which gives the
// events their steps.
void deriveOptimizerSteps(Trace& trace);

// What the views say of such steps ("" for a trace that marks its own).
std::string derivedStepsText(const Trace& trace);

} // namespace ts
