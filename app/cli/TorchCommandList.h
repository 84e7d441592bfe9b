#pragma once
// The trainscope-cli commands that need LibTorch (training, evaluation, the
// experiments), by name, with their one-line help. The torch-free front end
// lists them in its --help and hands them to trainscope-cli-torch; the torch
// binary declares them with the same text, so the two never disagree.
#include <cstring>

namespace ts::cli {

struct CommandName {
    const char* name;
    const char* description;
};

// In the order --help lists them: these before the trace commands ...
inline constexpr CommandName kTrainingCommands[] = {
    {"run", "train an experiment and record the run directory"},
    {"evaluate", "loss and accuracy of weights on a dataset"},
    {"model-info", "parameters and forward MACs per layer"},
    {"env", "LibTorch, CPU features, BLAS, oneDNN, devices"},
};

// ... and these after them.
inline constexpr CommandName kExperimentCommands[] = {
    {"sweep", "one short measured run per value of a key"},
    {"ladder", "baseline, then each optimization on top"},
    {"advise", "what to change, from a run's measurements"},
    {"roofline", "operators against the machine's peaks"},
    {"prune", "prune trained weights; accuracy and latency"},
    {"compare", "runs side by side: CSV, charts, report.md"},
};

inline const char* torchCommandDescription(const char* name) {
    for (const CommandName& c : kTrainingCommands)
        if (std::strcmp(c.name, name) == 0) return c.description;
    for (const CommandName& c : kExperimentCommands)
        if (std::strcmp(c.name, name) == 0) return c.description;
    return "";
}

inline bool isTorchCommand(const char* name) {
    return *torchCommandDescription(name) != '\0';
}

} // namespace ts::cli
