// readStateDict: recognises the weights file by its first bytes and zip
// records, then picks the tensors out of whatever layout the file uses.
#include <caffe2/serialize/inline_container.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "models/Model.h"
#include "models/NamedTensors.h"
#include "models/PythonCheckpoint.h"
#include "models/TensorPayload.h"
#include "models/TorchScriptModel.h"

namespace ts {
namespace {

using pickle::Kind;
using pickle::ValuePtr;

const char* const kAcceptedFormats =
    "a state_dict saved by Python torch.save (zip format, PyTorch 1.6 or newer, optionally "
    "nested under 'state_dict' or 'model'), a TorchScript module saved by torch.jit.save, or a "
    "LibTorch torch::save archive";

[[noreturn]] void unknownFormat(const std::string& path, const std::string& why) {
    throw ModelError("Weights file '" + path + "' " + why + "; expected " + kAcceptedFormats + ".");
}

// Legacy (pre-1.6) torch.save files begin with a protocol-2 pickle of this
// magic number (LONG1 0x1950a86a20f9469cfc6c).
bool isLegacyTorchSave(const std::array<unsigned char, 16>& head) {
    static const unsigned char magic[] = {0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c,
                                          0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19};
    return std::memcmp(head.data(), magic, sizeof magic) == 0;
}

// The dict that holds the tensors: the top-level object or, for training
// checkpoints, the one under a conventional key.
ValuePtr stateDictOf(const ValuePtr& top, const std::string& path) {
    if (top->kind == Kind::Dict) {
        for (const char* key : {"state_dict", "model_state_dict", "model"}) {
            const ValuePtr nested = top->get(key);
            if (nested && nested->kind == Kind::Dict) return nested;
        }
        return top;
    }
    const std::string what =
        top->kind == Kind::Opaque ? "a pickled " + top->text + " object" : kindName(top->kind);
    unknownFormat(path,
                  "holds " + what + " instead of a dict of tensors (save model.state_dict())");
}

StateDict tensorsOf(const ValuePtr& dict, const std::string& path) {
    static const std::string kDataParallelPrefix = "module.";
    StateDict out;
    for (const auto& [key, value] : dict->entries) {
        if (value->kind != Kind::Tensor || key->kind != Kind::String) continue; // e.g. _extra_state
        std::string name = key->text;
        if (name.rfind(kDataParallelPrefix, 0) == 0) name.erase(0, kDataParallelPrefix.size());
        out.emplace_back(std::move(name), pickle::tensorOf(*value));
    }
    if (out.empty()) unknownFormat(path, "holds a dict without any tensors");
    return out;
}

StateDict readTorchScriptWeights(const std::string& path) {
    torch::jit::Module module = loadTorchScript(path);
    StateDict out = toNamedTensorList(module.named_parameters(/*recurse=*/true));
    for (auto& item : toNamedTensorList(module.named_buffers(/*recurse=*/true)))
        out.push_back(std::move(item));
    for (auto& [name, tensor] : out)
        tensor = tensor.detach();
    if (out.empty()) unknownFormat(path, "is a TorchScript module without parameters or buffers");
    return out;
}

StateDict readZip(const std::string& path) {
    std::unique_ptr<caffe2::serialize::PyTorchStreamReader> archive;
    try {
        archive = std::make_unique<caffe2::serialize::PyTorchStreamReader>(path);
    } catch (const c10::Error& e) {
        throw ModelError("Weights file '" + path + "' is a zip file but cannot be read as a " +
                         "PyTorch archive (truncated or corrupt?): " + e.what_without_backtrace());
    }
    // TorchScript (and LibTorch torch::save) archives carry their code and constants.
    if (archive->hasRecord("constants.pkl")) {
        archive.reset();
        return readTorchScriptWeights(path);
    }
    if (!archive->hasRecord("data.pkl")) unknownFormat(path, "is a zip file without data.pkl");
    return tensorsOf(stateDictOf(readPythonCheckpoint(*archive, path), path), path);
}

} // namespace

StateDict readStateDict(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!std::filesystem::is_regular_file(path) || !in)
        throw ModelError("Weights file '" + path + "' does not exist or cannot be opened.");
    std::array<unsigned char, 16> head{};
    in.read(reinterpret_cast<char*>(head.data()), head.size());
    const std::streamsize got = in.gcount();
    in.close();
    if (got == 0) unknownFormat(path, "is empty");
    if (isLegacyTorchSave(head))
        throw ModelError("Weights file '" + path +
                         "' uses the legacy torch.save format of "
                         "PyTorch before 1.6, which is not supported; re-save it with a newer "
                         "PyTorch: torch.save(torch.load(f), f2).");
    if (got < 4 || std::memcmp(head.data(), "PK\x03\x04", 4) != 0)
        unknownFormat(path, "is neither a zip archive nor a known PyTorch format");
    try {
        return readZip(path);
    } catch (const c10::Error& e) {
        throw ModelError("Cannot read weights file '" + path +
                         "' (truncated or corrupt?): " + e.what_without_backtrace());
    }
}

} // namespace ts
