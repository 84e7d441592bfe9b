#include "models/TorchScriptModel.h"

#include <filesystem>

#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/frontend/error_report.h>

#include "env/TorchCompat.h"
#include "models/NamedTensors.h"
#include "models/UncallableOp.h"
#include "pickle/PickleError.h"
#include "pickle/Unpickler.h"

namespace ts {

// LibTorch's unpickler trusts the archive: a pickle whose counts or indices
// are wrong crashes it (SIGSEGV in torch::jit::Unpickler::readInstruction on
// a variant of tests/data/models/tiny_script.pt, WeightsMutationTest). Ours,
// fuzzed and bounds-checked, runs each pickle first, without building
// anything (tensors and classes stay opaque), and refuses a corrupt one.
void checkArchivePickles(const std::string& path) {
    caffe2::serialize::PyTorchStreamReader archive(path);
    pickle::UnpickleHooks hooks;
    hooks.persistent_load = [](const pickle::ValuePtr&) {
        return pickle::Value::make(pickle::Kind::None);
    };
    hooks.call = [](const std::string&, const std::vector<pickle::ValuePtr>&) {
        return pickle::ValuePtr(); // an Opaque value naming the callable
    };
    for (const char* record : {"data.pkl", "constants.pkl"}) {
        if (!archive.hasRecord(record)) continue;
        const auto [data, size] = archive.getRecord(record);
        try {
            pickle::unpickle(static_cast<const uint8_t*>(data.get()), size,
                             "'" + path + "' (" + record + ")", hooks);
        } catch (const pickle::PickleError& e) {
            throw ModelError(e.what()); // names the file and the record
        }
    }
}

namespace {

// LibTorch's reason without what it quotes after it. Past its first line a
// c10::Error from the TorchScript parser quotes the archive's code, which in a
// corrupt archive can be any bytes: with LibTorch 2.15 once the heap's own (a
// backtrace's frames, WeightsMutationTest, variant 132 of tiny_script.pt).
std::string torchScriptReason(const std::string& what) {
    std::string reason = what.substr(0, what.find('\n'));
    const std::string quoting = " here:";
    if (reason.size() > quoting.size() &&
        reason.compare(reason.size() - quoting.size(), quoting.size(), quoting) == 0)
        reason.replace(reason.size() - quoting.size(), quoting.size(), " in its code.");
    return reason;
}

} // namespace

torch::jit::Module loadTorchScript(const std::string& path) {
    if (!std::filesystem::is_regular_file(path))
        throw ModelError("TorchScript file '" + path + "' does not exist or is not a file.");
    try {
        checkArchivePickles(path);
        return torch::jit::load(path, torch::kCPU);
    } catch (const ModelError&) {
        throw;
    } catch (const c10::Error& e) {
        throw ModelError("Cannot load TorchScript module from '" + path +
                         "': " + torchScriptReason(e.what_without_backtrace()));
    } catch (const torch::jit::ErrorReport& e) {
        // The archive's code did not compile. Its what() is not asked for:
        // it reads the archive's debug pickles to quote the code, and on a
        // corrupt one LibTorch throws from inside that noexcept call, which
        // ends the process (found by WeightsMutationTest). The reason alone
        // is read without it: for a module saved by a newer PyTorch, the op
        // or type this LibTorch lacks: for an op, which release added it.
        if (const auto call = uncallableOpIn(compat::errorReportText(e)))
            throw ModelError("Cannot load TorchScript module from '" + path +
                             "': " + explainUncallableOp(*call, TORCH_VERSION));
        std::string reason = compat::errorReportReason(e);
        reason = reason.empty() ? "." : ": " + reason;
        if (reason.back() != '.' && reason.back() != '?' && reason.back() != '!') reason += '.';
        throw ModelError("Cannot load TorchScript module from '" + path +
                         "': its code does not compile with this LibTorch (" + TORCH_VERSION + ")" +
                         reason + " A corrupt file, or one saved by a newer PyTorch?");
    } catch (const std::exception& e) {
        // E.g. a class name that does not parse (a std::runtime_error): its
        // first line says why; the rest quotes the archive.
        const std::string what = e.what();
        throw ModelError("Cannot load TorchScript module from '" + path +
                         "' (corrupt?): " + what.substr(0, what.find('\n')));
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
