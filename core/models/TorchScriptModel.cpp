#include "models/TorchScriptModel.h"

#include <filesystem>

#include "models/NamedTensors.h"

namespace ts {

torch::jit::Module loadTorchScript(const std::string& path) {
    if (!std::filesystem::is_regular_file(path))
        throw ModelError("TorchScript file '" + path + "' does not exist or is not a file.");
    try {
        return torch::jit::load(path, torch::kCPU);
    } catch (const c10::Error& e) {
        throw ModelError("Cannot load TorchScript module from '" + path +
                         "': " + e.what_without_backtrace());
    }
}

TorchScriptModel::TorchScriptModel(const std::string& path)
    : path_(path), module_(loadTorchScript(path)) {
    if (!module_.find_method("forward"))
        throw ModelError("TorchScript module '" + path + "' has no forward method.");
}

torch::Tensor TorchScriptModel::forward(const torch::Tensor& input) {
    const c10::IValue out = module_.forward({input});
    if (!out.isTensor())
        throw ModelError("TorchScript module '" + path_ + "' returned a " + out.tagKind() +
                         " from forward; expected a single Tensor of logits.");
    return out.toTensor();
}

std::vector<torch::Tensor> TorchScriptModel::parameters() {
    std::vector<torch::Tensor> out;
    for (const auto& p : module_.parameters(/*recurse=*/true))
        out.push_back(p);
    return out;
}

std::vector<std::pair<std::string, torch::Tensor>> TorchScriptModel::namedParameters() {
    return toNamedTensorList(module_.named_parameters(/*recurse=*/true));
}

std::vector<std::pair<std::string, torch::Tensor>> TorchScriptModel::namedBuffers() {
    return toNamedTensorList(module_.named_buffers(/*recurse=*/true));
}

void TorchScriptModel::to(const torch::Device& device, bool channels_last) {
    module_.to(device);
    if (!channels_last) return;
    convertToChannelsLast(namedParameters());
    convertToChannelsLast(namedBuffers());
}

std::string TorchScriptModel::name() const {
    return "torchscript:" + std::filesystem::path(path_).filename().string();
}

} // namespace ts
