#pragma once
// Configs shared by the widget tests.
#include "config/ExperimentConfig.h"

namespace ts::testing {

// The tiny synthetic experiment of the GUI tests: a few seconds on 2 cores.
inline ExperimentConfig tinyConfig() {
    ExperimentConfig c;
    c.name = "gui-test";
    c.model = "resnet18";
    c.stem = "imagenet"; // downsamples early: the same network at a fraction of the cost
    c.dataset = "synthetic";
    c.synthetic_samples = 256;
    c.image_size = 32;
    c.batch_size = 16;
    c.epochs = 1;
    c.max_steps = 6;
    c.val_max_steps = 2;
    c.threads = 2;
    c.warmup_steps_excluded = 1;
    return c;
}

} // namespace ts::testing
