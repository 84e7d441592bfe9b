#include <stdexcept>

#include "models/Model.h"
#include "models/ResNetModel.h"
#include "models/TorchScriptModel.h"

namespace ts {

std::unique_ptr<Model> createModel(const ExperimentConfig& config, int in_channels) {
    if (config.model == "torchscript") {
        if (config.model_path.empty())
            throw ModelError("Config key model_path is empty; model 'torchscript' needs the path "
                             "of a TorchScript file.");
        return std::make_unique<TorchScriptModel>(config.model_path);
    }
    try {
        return std::make_unique<ResNetModel>(
            resNetSpec(config.model, config.stem, in_channels, config.num_classes));
    } catch (const std::invalid_argument& e) {
        throw ModelError(std::string("Cannot build the model: ") + e.what() +
                         " (model may also be 'torchscript' with model_path).");
    }
}

} // namespace ts
