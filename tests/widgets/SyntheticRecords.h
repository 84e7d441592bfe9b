#pragma once
// Made-up step and epoch records for feeding the Live view without training.
#include <vector>

#include "records/Records.h"

namespace ts::testing {

inline StepRecord syntheticStep(int64_t global_step, int steps_per_epoch = 50) {
    StepRecord s;
    s.global_step = global_step;
    s.epoch = int(global_step / steps_per_epoch);
    s.step = global_step % steps_per_epoch;
    s.batch_size = 32;
    s.phases.data_ms = 2 + global_step % 3;
    s.phases.copy_ms = 0.5;
    s.phases.forward_ms = 20;
    s.phases.backward_ms = 40;
    s.phases.optimizer_ms = 5;
    s.phases.other_ms = 0.5;
    s.step_ms = s.phases.total();
    s.images_per_sec = 32 * 1000.0 / s.step_ms;
    s.loss = 2.3 / (1.0 + 0.05 * double(global_step));
    s.lr = 0.05;
    s.correct = std::min<int64_t>(32, 3 + global_step / 4);
    s.tensor_bytes = 50 << 20;
    s.tensor_peak_bytes = 120 << 20;
    // Adam on a 20 MiB model: its categories add up to the peak.
    s.memory.parameter_bytes = 20 << 20;
    s.memory.optimizer_state_bytes = 40 << 20;
    s.memory.input_bytes = 1 << 20;
    s.memory.gradient_bytes = 20 << 20;
    s.memory.activation_bytes = 35 << 20;
    s.memory.temporary_bytes = 4 << 20;
    s.rss_bytes = 700 << 20;
    s.page_faults = global_step == 0 ? 30000 : 40; // the heap grows in the first step only
    s.wall_s = 0.07 * double(global_step + 1);
    s.profiled = global_step >= 10 && global_step < 12;
    return s;
}

inline std::vector<StepRecord> syntheticSteps(int64_t first, int64_t count) {
    std::vector<StepRecord> steps;
    for (int64_t i = first; i < first + count; ++i)
        steps.push_back(syntheticStep(i));
    return steps;
}

inline EpochRecord syntheticEpoch(int epoch) {
    EpochRecord e;
    e.epoch = epoch;
    e.steps = 50;
    e.epoch_time_s = 3.5 + epoch * 0.1;
    e.val_time_s = 0.6;
    e.images_per_sec = 460;
    e.train_loss = 1.2;
    e.train_accuracy = 0.6;
    e.has_val = true;
    e.val_loss = 1.1;
    e.val_accuracy = 0.62 + 0.05 * epoch;
    return e;
}

} // namespace ts::testing
