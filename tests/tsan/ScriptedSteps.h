#pragma once
// The records a scripted run reports, shared by the scripted backend (a run
// in the GUI's process) and tsan_scripted_launcher (a data-parallel job's
// ranks): a step split into forward and backward, a falling loss.
#include <cstdint>

#include "records/Records.h"

namespace ts::test {

inline StepRecord scriptedStep(int epoch, int64_t step_in_epoch, int64_t global_step,
                               int batch_size, double step_ms) {
    StepRecord s;
    s.epoch = epoch;
    s.step = step_in_epoch;
    s.global_step = global_step;
    s.batch_size = batch_size;
    s.step_ms = step_ms;
    s.phases.forward_ms = 0.4 * step_ms;
    s.phases.backward_ms = 0.6 * step_ms;
    s.loss = 1.0 / double(global_step + 1);
    return s;
}

inline EpochRecord scriptedEpoch(int epoch, int64_t steps_done) {
    EpochRecord e;
    e.epoch = epoch;
    e.train_loss = 1.0 / double(steps_done);
    return e;
}

} // namespace ts::test
