#include "models/NamedTensors.h"

namespace ts {

NamedTensorList toNamedTensorList(const torch::OrderedDict<std::string, torch::Tensor>& named) {
    NamedTensorList out;
    for (const auto& item : named)
        out.emplace_back(item.key(), item.value());
    return out;
}

void convertToChannelsLast(const NamedTensorList& tensors) {
    torch::NoGradGuard no_grad;
    for (const auto& [name, tensor] : tensors) {
        if (!tensor.defined() || tensor.dim() != 4) continue;
        torch::Tensor t = tensor; // handle sharing the module's TensorImpl
        t.set_data(t.data().contiguous(at::MemoryFormat::ChannelsLast));
    }
}

} // namespace ts
