#pragma once
// Model backed by the built-in torchvision-compatible ResNet.
#include "models/Model.h"
#include "models/ResNet.h"

namespace ts {

class ResNetModel : public Model {
public:
    explicit ResNetModel(const ResNetSpec& spec) : net_(spec) {}
    torch::Tensor forward(const torch::Tensor& input) override { return net_->forward(input); }
    std::vector<torch::Tensor> parameters() override { return net_->parameters(); }
    std::vector<std::pair<std::string, torch::Tensor>> namedParameters() override;
    std::vector<std::pair<std::string, torch::Tensor>> namedBuffers() override;
    void train(bool on) override { net_->train(on); }
    void to(const torch::Device& device, bool channels_last) override;
    std::string name() const override { return net_->spec().model; }
    ResNet& net() { return net_; }

private:
    ResNet net_;
};

} // namespace ts
