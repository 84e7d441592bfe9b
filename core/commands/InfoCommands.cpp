// model-info and env: read-only commands that need LibTorch.
#include <iomanip>

#include <nlohmann/json.hpp>

#include "analysis/OpTableFormat.h"
#include "commands/Commands.h"
#include "commands/Guarded.h"
#include "config/ConfigError.h"
#include "config/ThreadChoice.h"
#include "env/Devices.h"
#include "env/Environment.h"
#include "models/ModelSummary.h"
#include "report/RunDirectory.h"

namespace ts {

int modelInfoCommand(const ModelInfoOptions& o, std::ostream& out, std::ostream& err) {
    return runGuarded(err, [&] {
        const auto summary =
            summarizeModel(o.model, o.stem, o.in_channels, o.input_size, o.num_classes);
        if (o.json)
            out << toJson(summary).dump(2) << "\n";
        else
            out << formatModelSummary(summary);
        return exit_code::kOk;
    });
}

int envCommand(const EnvOptions& o, std::ostream& out, std::ostream&) {
    const auto env = probeEnvironment();
    if (o.json) {
        auto j = toJson(env);
        nlohmann::json devices = nlohmann::json::array();
        for (const auto& d : listDevices())
            devices.push_back({{"id", d.id},
                               {"label", d.label},
                               {"available", d.available},
                               {"reason", d.reason},
                               {"precisions", d.precisions}});
        j["devices"] = devices;
        out << j.dump(2) << "\n";
        return exit_code::kOk;
    }
    auto row = [&](const char* key, const std::string& value) {
        out << std::left << std::setw(18) << key << value << "\n";
    };
    std::string features;
    for (const auto& f : env.cpu_features)
        features += (features.empty() ? "" : " ") + f;
    row("Trainscope", env.trainscope_version);
    row("LibTorch", env.torch_version);
    row("OS", env.os);
    row("CPU", env.cpu_model + " (" + std::to_string(env.logical_cores) + " logical cores, " +
                   std::to_string(env.usable_cores) + " usable by this process)");
    row("CPU features", features);
    row("native bf16", env.cpuHasNativeBf16() ? "yes (AVX512-BF16/AMX)" : "no (bf16 is emulated)");
    row("BLAS", env.blas + (env.blas_library.empty() ? "" : " — " + env.blas_library));
    if (env.reference_blas)
        row("", "WARNING: reference BLAS is ~50x slower; install libopenblas0-pthread");
    row("oneDNN", env.onednn ? "yes " + env.onednn_version : "no");
    row("threads", std::to_string(chooseIntraOpThreads(0, 0, env.usable_cores).threads) +
                       " intra-op for runs (threads=0: the usable cores); LibTorch's own default " +
                       std::to_string(env.intra_op_threads) + ", inter-op " +
                       std::to_string(env.inter_op_threads));
    row("memory", formatBytes(env.host_memory_total) + " total, " +
                      formatBytes(env.host_memory_available) + " available");
    for (const auto& d : listDevices()) {
        // A CUDA device's label starts with its id (the GUI shows it alone).
        std::string text = d.available ? d.label : d.reason;
        if (text.rfind(d.id + " ", 0) == 0) text.erase(0, d.id.size() + 1);
        row(d.id == "cpu" ? "device" : "", d.id + ": " + text);
    }
    return exit_code::kOk;
}

} // namespace ts
