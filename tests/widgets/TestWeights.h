#pragma once
// Trained weights for the widget tests that prune: a few steps of a config
// through the GUI's TorchBackend, its final.pt checkpoint written into a
// directory.
#include <filesystem>
#include <string>

#include "backend/TorchBackendLoader.h"
#include "config/ExperimentConfig.h"
#include "records/TrainerObserver.h"

namespace ts::testing {

// The path of final.pt, or empty when the training did not complete.
inline std::string trainWeights(ExperimentConfig config, const std::filesystem::path& dir,
                                int64_t steps = 2) {
    config.max_steps = steps;
    config.profile.enabled = false;
    TrainerObserver quiet;
    std::filesystem::create_directories(dir);
    const auto training = gui::torchBackend().trainingRun(config, dir, quiet, true);
    if (training->run().status != RunStatus::Completed) return {};
    const auto weights = dir / "final.pt";
    return std::filesystem::exists(weights) ? weights.string() : std::string();
}

} // namespace ts::testing
