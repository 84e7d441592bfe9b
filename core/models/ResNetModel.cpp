#include "models/ResNetModel.h"

#include "models/NamedTensors.h"

namespace ts {

std::vector<std::pair<std::string, torch::Tensor>> ResNetModel::namedParameters() {
    return toNamedTensorList(net_->named_parameters(/*recurse=*/true));
}

std::vector<std::pair<std::string, torch::Tensor>> ResNetModel::namedBuffers() {
    return toNamedTensorList(net_->named_buffers(/*recurse=*/true));
}

void ResNetModel::to(const torch::Device& device, bool channels_last) {
    net_->to(device);
    if (!channels_last) return;
    convertToChannelsLast(namedParameters());
    convertToChannelsLast(namedBuffers());
}

} // namespace ts
