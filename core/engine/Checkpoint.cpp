#include "engine/Checkpoint.h"

#include <cerrno>
#include <fstream>
#include <map>

#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/frontend/error_report.h>

#include "engine/LossScaler.h"
#include "env/TorchCompat.h"
#include "models/TorchScriptModel.h"
#include "util/AtomicFile.h"
#include "util/ErrorText.h"

namespace ts {
namespace {

constexpr const char* kFormat = "trainscope-checkpoint-1";

c10::Dict<std::string, at::Tensor> modelTensors(Model& model) {
    c10::Dict<std::string, at::Tensor> dict;
    for (auto& [name, t] : model.namedParameters())
        dict.insert(name, t.detach().cpu());
    for (auto& [name, t] : model.namedBuffers())
        dict.insert(name, t.detach().cpu());
    return dict;
}

// Why LibTorch could not open a checkpoint, in plain words. A file that is not
// a zip archive at all (garbage, cut short) is the common case; LibTorch calls
// it "failed finding central directory" and, in 2.x, blames miniz.
std::string checkpointReadProblem(const std::string& what) {
    if (what.find("central directory") != std::string::npos)
        return "not a zip archive: the file is damaged, cut short or not written by PyTorch";
    return briefTorchMessage(what);
}

torch::serialize::InputArchive openArchive(const std::filesystem::path& path) {
    torch::serialize::InputArchive archive;
    try {
        checkArchivePickles(path.string());
        archive.load_from(path.string());
    } catch (const ModelError&) {
        throw;
    } catch (const torch::jit::ErrorReport& e) {
        // Not e.what(): on a corrupt archive it throws inside noexcept and
        // ends the process (models/TorchScriptModel.cpp, loadTorchScript).
        const std::string reason = compat::errorReportReason(e);
        throw ModelError(path.string() +
                         ": not a readable checkpoint (it holds code that does "
                         "not compile: a TorchScript module, or corrupt" +
                         (reason.empty() ? "" : "; " + reason) + ")");
    } catch (const std::exception& e) {
        throw ModelError(path.string() + ": not a readable checkpoint (" +
                         checkpointReadProblem(e.what()) + ")");
    }
    c10::IValue format;
    if (!archive.try_read("format", format) || !format.isString() ||
        format.toStringRef() != kFormat)
        throw ModelError(path.string() + ": not a Trainscope checkpoint (no \"" + kFormat +
                         "\" marker)");
    return archive;
}

StateDict readWeights(torch::serialize::InputArchive& archive) {
    c10::IValue value;
    archive.read("model", value);
    StateDict out;
    for (const auto& entry : value.toGenericDict())
        out.emplace_back(entry.key().toStringRef(), entry.value().toTensor());
    return out;
}

int64_t readInt(torch::serialize::InputArchive& archive, const char* key) {
    c10::IValue value;
    archive.read(key, value);
    return value.toInt();
}

// LibTorch's archive writer throws from its destructor when a write fails (a
// full disk), which terminates the process: it writes through a callback that
// always reports success, and the failure is kept and raised here. The file is
// read back before it is named: an archive cut short must never become a
// checkpoint.
void writeArchive(torch::serialize::OutputArchive& archive, const std::filesystem::path& path,
                  const std::filesystem::path& tmp) {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    int failure = out ? 0 : (errno != 0 ? errno : EIO);
    archive.save_to([&](const void* data, size_t size) -> size_t {
        errno = 0;
        if (failure == 0 && !out.write(static_cast<const char*>(data), std::streamsize(size)))
            failure = errno != 0 ? errno : EIO;
        return size;
    });
    errno = 0;
    out.close();
    if (failure == 0 && !out) failure = errno != 0 ? errno : EIO;
    if (failure != 0)
        throw std::runtime_error(writeError(path.string(), failure) +
                                 "; the checkpoint was not saved");
    try {
        caffe2::serialize::PyTorchStreamReader check(tmp.string());
    } catch (const std::exception& e) {
        throw std::runtime_error(path.string() + ": the checkpoint written does not read back (" +
                                 checkpointReadProblem(e.what()) + "); not saved");
    }
}

} // namespace

void saveCheckpoint(const std::filesystem::path& path, Model& model,
                    torch::optim::Optimizer& optimizer, const LossScaler* scaler,
                    const CheckpointPosition& position, const std::string& config_json) {
    torch::serialize::OutputArchive archive;
    archive.write("format", c10::IValue(std::string(kFormat)));
    archive.write("model", c10::IValue(modelTensors(model)));
    torch::serialize::OutputArchive optimizer_archive;
    optimizer.save(optimizer_archive);
    archive.write("optimizer", optimizer_archive);
    archive.write("epoch", c10::IValue(int64_t(position.epoch)));
    archive.write("step_in_epoch", c10::IValue(position.step_in_epoch));
    archive.write("global_step", c10::IValue(position.global_step));
    archive.write("best_val_accuracy", c10::IValue(position.best_val_accuracy));
    archive.write("world_size", c10::IValue(int64_t(position.world_size)));
    archive.write("config", c10::IValue(config_json));
    if (scaler) {
        archive.write("scaler_scale", scaler->stateScale().cpu(), /*is_buffer=*/true);
        archive.write("scaler_growth", scaler->stateGrowthTracker().cpu(), /*is_buffer=*/true);
    }
    writeAtomically(path,
                    [&](const std::filesystem::path& tmp) { writeArchive(archive, path, tmp); });
}

bool isTrainscopeCheckpoint(const std::filesystem::path& path) {
    try {
        openArchive(path);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

StateDict readCheckpointWeights(const std::filesystem::path& path) {
    auto archive = openArchive(path);
    return readWeights(archive);
}

CheckpointPosition loadCheckpoint(const std::filesystem::path& path, Model& model,
                                  torch::optim::Optimizer& optimizer, LossScaler* scaler) {
    auto archive = openArchive(path);
    std::map<std::string, torch::Tensor> saved;
    for (auto& [name, t] : readWeights(archive))
        saved[name] = t;
    torch::NoGradGuard no_grad;
    auto restore = [&](std::vector<std::pair<std::string, torch::Tensor>> tensors) {
        for (auto& [name, t] : tensors) {
            auto it = saved.find(name);
            if (it == saved.end())
                throw ModelError(path.string() + ": checkpoint has no tensor \"" + name +
                                 "\" (was it written for another model?)");
            if (it->second.sizes() != t.sizes())
                throw ModelError(path.string() + ": tensor \"" + name + "\" has shape " +
                                 c10::str(it->second.sizes()) + ", the model expects " +
                                 c10::str(t.sizes()));
            t.copy_(it->second);
        }
    };
    restore(model.namedParameters());
    restore(model.namedBuffers());
    torch::serialize::InputArchive optimizer_archive;
    archive.read("optimizer", optimizer_archive);
    try {
        optimizer.load(optimizer_archive);
    } catch (const std::exception& e) {
        throw ModelError(path.string() +
                         ": optimizer state does not match the configured "
                         "optimizer (" +
                         std::string(e.what()).substr(0, 200) + ")");
    }
    if (scaler) {
        torch::Tensor scale, growth;
        if (archive.try_read("scaler_scale", scale, true) &&
            archive.try_read("scaler_growth", growth, true))
            scaler->restore(scale, growth);
    }
    CheckpointPosition position;
    position.epoch = static_cast<int>(readInt(archive, "epoch"));
    position.step_in_epoch = readInt(archive, "step_in_epoch");
    position.global_step = readInt(archive, "global_step");
    c10::IValue best;
    archive.read("best_val_accuracy", best);
    position.best_val_accuracy = best.toDouble();
    c10::IValue world; // absent in checkpoints written before data-parallel runs
    if (archive.try_read("world_size", world) && world.isInt())
        position.world_size = static_cast<int>(world.toInt());
    return position;
}

} // namespace ts
