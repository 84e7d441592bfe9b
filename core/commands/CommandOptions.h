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

// Data-parallel launch flags of `run`, named as torchrun names them.
struct RankLaunchOptions {
    int nproc_per_node = 1; // local ranks; they share this machine's cores
    int nnodes = 1;
    int node_rank = 0;
    std::string master_addr = "127.0.0.1";
    int master_port = 0;   // 0: node 0 picks a free port (one node only)
    double timeout_s = 60; // a rank silent this long fails the run

    bool launches() const { return nproc_per_node > 1 || nnodes > 1; }
};

struct RunOptions {
    ConfigSource source;
    RankLaunchOptions launch;
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
