#pragma once
// Analytic parameter and MAC counts per layer (no torch): `model-info`, the
// run records, FLOP cross-checks of the profiler.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ts {

struct LayerSummary {
    std::string name;                  // torchvision module name ("layer1.0.conv1")
    std::string type;                  // Conv2d, BatchNorm2d, Linear, MaxPool2d, ...
    std::vector<int64_t> output_shape; // [C, H, W] or [features]
    int64_t params = 0;
    double macs = 0; // multiply-accumulates, forward, one image
};

struct ModelSummary {
    std::string model, stem;
    int in_channels = 3, input_size = 224, num_classes = 1000;
    std::vector<LayerSummary> layers;
    int64_t total_params = 0;
    double total_macs = 0;
};

// Throws std::invalid_argument naming the bad model/stem/size.
ModelSummary summarizeModel(const std::string& model, const std::string& stem, int in_channels,
                            int input_size, int num_classes);
std::string formatModelSummary(const ModelSummary& summary); // aligned text table
nlohmann::json toJson(const ModelSummary& summary);

} // namespace ts
