#pragma once
// Options of the CLI commands, filled by app/cli/main.cpp (CLI11) and by tests.
#include <string>
#include <vector>

namespace ts {

// Where an experiment config comes from: a preset, then a JSON file on top,
// then key=value overrides.
struct ConfigSource {
    std::string preset;
    std::string config_file;
    std::vector<std::string> overrides;
};

struct RunOptions {
    ConfigSource source;
    std::string out_dir; // empty: runs/<timestamp>-<name>
    std::string runs_root = "runs";
    bool json = false;    // print the summary as JSON
    bool progress = true; // progress bar when stderr is a terminal
};

struct EvaluateOptions {
    ConfigSource source;
    std::string weights;
    std::string split = "test"; // test | train
    bool json = false;
};

struct ModelInfoOptions {
    std::string model = "resnet18";
    std::string stem = "imagenet";
    int input_size = 224;
    int in_channels = 3;
    int num_classes = 1000;
    bool json = false;
};

struct EnvOptions {
    bool json = false;
};

} // namespace ts
