#pragma once
// The ladder the ladder tests and goldens share: an 8-core CPU context, a
// short spec on tinyConfig() and a scripted speed for each change.
#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "SweepTestSupport.h"
#include "experiments/Ladder.h"

namespace ts::test {

inline LadderContext cpuLadderContext() {
    LadderContext c;
    c.logical_cores = 8;
    c.default_threads = 4;
    c.cpu_model = "Test CPU";
    return c;
}

inline LadderSpec ladderSpec(ExperimentConfig base = tinyConfig()) {
    LadderSpec s;
    s.base = base;
    s.steps = 3;
    s.warmup = 1;
    s.val_batches = 2;
    return s;
}

// images/s: 100, x1.5 with workers, x1.01 with channels-last (inside the 3%
// margin), x1.2 for a doubled batch, x0.9 with more threads; 100 MiB per 8 images.
inline PointResult cpuLadderBehaviour(const ExperimentConfig& c) {
    double ips = 100;
    if (c.workers > 0) ips *= 1.5;
    if (c.channels_last) ips *= 1.01;
    if (c.batch_size > 8) ips *= 1.2;
    if (c.threads != 1) ips *= 0.9;
    return completedPoint(ips, 100 * kMiB * c.batch_size / 8);
}

} // namespace ts::test
