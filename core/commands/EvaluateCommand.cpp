#include <nlohmann/json.hpp>

#include "commands/Commands.h"
#include "commands/Guarded.h"
#include "config/ConfigError.h"
#include "data/DataLoader.h"
#include "engine/Checkpoint.h"
#include "engine/Evaluate.h"
#include "models/Model.h"

namespace ts {

int evaluateCommand(const EvaluateOptions& o, std::ostream& out, std::ostream& err) {
    return runGuarded(err, [&] {
        if (o.split != "test" && o.split != "train")
            throw ConfigError("--split " + o.split + ": expected test or train");
        const auto config = resolveConfig(o.source);
        if (config.threads > 0) at::set_num_threads(config.threads);
        const auto dataset = loadDataset(config, o.split == "train" ? Split::Train : Split::Test);
        auto model = createModel(config, dataset.channels);
        const auto weights = isTrainscopeCheckpoint(o.weights) ? readCheckpointWeights(o.weights)
                                                               : readStateDict(o.weights);
        const std::string report = loadPretrained(*model, weights, o.weights);
        const torch::Device device(config.device);
        model->to(device, config.channels_last);
        LoaderOptions loader_options;
        loader_options.batch_size = config.batch_size;
        loader_options.shuffle = false;
        loader_options.drop_last = false;
        loader_options.workers = config.workers;
        loader_options.channels_last = config.channels_last;
        loader_options.max_batches = config.val_max_steps;
        DataLoader loader(dataset, loader_options);
        const auto r = evaluateModel(*model, loader, 0, device, config.precision);
        if (o.json) {
            out << nlohmann::json{{"weights", o.weights},   {"split", o.split},
                                  {"samples", r.samples},   {"loss", r.loss},
                                  {"accuracy", r.accuracy}, {"seconds", r.seconds}}
                       .dump(2)
                << "\n";
        } else {
            out << report << "\n"
                << config.dataset << " " << o.split << ": " << r.samples << " images, loss "
                << r.loss << ", accuracy " << r.accuracy * 100 << "% (" << r.seconds << " s)\n";
        }
        return exit_code::kOk;
    });
}

} // namespace ts
