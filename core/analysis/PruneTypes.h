#pragma once
// What pruning is asked to do and what it did to each layer. Torch stays out
// of this header so the GUI can show a pruning study without compiling LibTorch.
#include <cstdint>
#include <string>
#include <vector>

namespace ts {

struct PruneOptions {
    double amount = 0.3;         // share of weights (or channels) to zero, 0..1
    bool structured = false;     // whole output channels instead of single weights
    bool global = false;         // one threshold over all layers (unstructured only)
    int norm = 1;                // structured: 1 = L1, 2 = L2 norm of each channel
    bool include_linear = false; // also the fully connected layers (2-D weights)
};

struct LayerSparsity {
    std::string name; // "layer1.0.conv1.weight"
    std::vector<int64_t> shape;
    int64_t params = 0;
    int64_t zeros_before = 0;
    int64_t zeros_after = 0;
    int64_t channels = 0;        // output channels
    int64_t channels_zeroed = 0; // output channels that are entirely zero after pruning

    double sparsityBefore() const { return params ? double(zeros_before) / double(params) : 0; }
    double sparsityAfter() const { return params ? double(zeros_after) / double(params) : 0; }
};

// Throws std::invalid_argument naming the option when the options are invalid.
void checkPruneOptions(const PruneOptions& options);

} // namespace ts
