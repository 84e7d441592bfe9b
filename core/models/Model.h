#pragma once
// What the engine trains: built-in ResNets (torchvision-compatible names) or a
// user's TorchScript module, behind one interface.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "config/ExperimentConfig.h"

namespace ts {

// Thrown for unusable weights/model files; what() names the file and the
// offending parameter (and both shapes on a mismatch).
class ModelError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Model {
public:
    virtual ~Model() = default;
    virtual torch::Tensor forward(const torch::Tensor& input) = 0;
    virtual std::vector<torch::Tensor> parameters() = 0;
    // torchvision-style names ("layer1.0.conv1.weight", "bn1.running_mean", ...).
    virtual std::vector<std::pair<std::string, torch::Tensor>> namedParameters() = 0;
    virtual std::vector<std::pair<std::string, torch::Tensor>> namedBuffers() = 0;
    virtual void train(bool on) = 0;
    // Moves parameters and buffers; channels_last converts 4-D ones.
    virtual void to(const torch::Device& device, bool channels_last) = 0;
    virtual std::string name() const = 0;
};

// resnet18/34/50 (either stem) or a TorchScript module (config.model_path).
// `in_channels` comes from the dataset (1 for Fashion-MNIST, 3 for CIFAR).
std::unique_ptr<Model> createModel(const ExperimentConfig& config, int in_channels);

// Named tensors read from a weights file: a Python `torch.save(state_dict)`
// zip (an OrderedDict), a LibTorch archive, or a TorchScript module.
using StateDict = std::vector<std::pair<std::string, torch::Tensor>>;
StateDict readStateDict(const std::string& path);

// Copies `weights` into the model. The classifier head (fc.*) is skipped when
// its shape differs (transfer learning to another num_classes), and also the
// first conv when only its input channels differ; every other missing or
// mis-shaped tensor is a ModelError naming it. Returns a one-line report.
std::string loadPretrained(Model& model, const StateDict& weights, const std::string& origin);

} // namespace ts
