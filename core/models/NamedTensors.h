#pragma once
// Small helpers shared by the Model implementations.
#include <string>
#include <utility>
#include <vector>

#include <torch/torch.h>

namespace ts {

using NamedTensorList = std::vector<std::pair<std::string, torch::Tensor>>;

// Converts TorchScript's named_parameters()/named_buffers() lists.
template <typename Named> NamedTensorList toNamedTensorList(const Named& named) {
    NamedTensorList out;
    for (const auto& item : named)
        out.emplace_back(item.name, item.value);
    return out;
}

// Converts torch::nn::Module's named_parameters()/named_buffers().
NamedTensorList toNamedTensorList(const torch::OrderedDict<std::string, torch::Tensor>& named);

// Re-lays out every 4-D tensor as channels-last in place (set_data keeps the
// module's references valid): torch::nn::Module::to has no memory-format overload.
void convertToChannelsLast(const NamedTensorList& tensors);

} // namespace ts
