#include "models/PythonCheckpoint.h"

#include <caffe2/serialize/inline_container.h>

#include <map>

#include "models/Model.h"
#include "models/TensorPayload.h"
#include "pickle/PickleError.h"
#include "pickle/TensorLayout.h"
#include "pickle/Unpickler.h"

namespace ts {
namespace {

using pickle::Kind;
using pickle::Value;
using pickle::ValuePtr;

// Element type of a storage class ("torch.FloatStorage") or a dtype
// ("torch.float32", as _rebuild_tensor_v3 passes it); nullopt if unknown.
std::optional<c10::ScalarType> scalarTypeOf(const std::string& global) {
    static const std::map<std::string, c10::ScalarType> types{
        {"FloatStorage", c10::kFloat},
        {"float32", c10::kFloat},
        {"float", c10::kFloat},
        {"DoubleStorage", c10::kDouble},
        {"float64", c10::kDouble},
        {"double", c10::kDouble},
        {"HalfStorage", c10::kHalf},
        {"float16", c10::kHalf},
        {"half", c10::kHalf},
        {"BFloat16Storage", c10::kBFloat16},
        {"bfloat16", c10::kBFloat16},
        {"LongStorage", c10::kLong},
        {"int64", c10::kLong},
        {"long", c10::kLong},
        {"IntStorage", c10::kInt},
        {"int32", c10::kInt},
        {"int", c10::kInt},
        {"ShortStorage", c10::kShort},
        {"int16", c10::kShort},
        {"short", c10::kShort},
        {"CharStorage", c10::kChar},
        {"int8", c10::kChar},
        {"ByteStorage", c10::kByte},
        {"uint8", c10::kByte},
        {"UntypedStorage", c10::kByte},
        {"BoolStorage", c10::kBool},
        {"bool", c10::kBool},
    };
    if (global.rfind("torch.", 0) != 0) return std::nullopt;
    const auto found = types.find(global.substr(6));
    if (found == types.end()) return std::nullopt;
    return found->second;
}

class CheckpointReader {
public:
    CheckpointReader(caffe2::serialize::PyTorchStreamReader& archive, const std::string& path)
        : archive_(archive), path_(path) {}

    ValuePtr read() {
        checkByteOrder();
        const auto [data, size] = archive_.getRecord("data.pkl");
        pickle::UnpickleHooks hooks;
        hooks.persistent_load = [this](const ValuePtr& pid) { return loadStorage(pid); };
        hooks.call = [this](const std::string& f, const std::vector<ValuePtr>& args) {
            return call(f, args);
        };
        try {
            return pickle::unpickle(static_cast<const uint8_t*>(data.get()), size,
                                    "'" + path_ + "' (data.pkl)", hooks);
        } catch (const pickle::PickleError& e) {
            throw ModelError(e.what());
        }
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw ModelError("Cannot read weights file '" + path_ + "': " + what + ".");
    }

    void checkByteOrder() {
        if (!archive_.hasRecord("byteorder")) return; // older writers: always little-endian
        const auto [data, size] = archive_.getRecord("byteorder");
        const std::string order(static_cast<const char*>(data.get()), size);
        if (order != "little")
            fail("its tensors are stored " + order +
                 "-endian; only little-endian files are supported");
    }

    // Persistent id ('storage', storage_type, key, location, numel).
    ValuePtr loadStorage(const ValuePtr& pid) {
        const auto& f = pid->items;
        if (pid->kind != Kind::Tuple || f.size() < 5 || !f[0]->isTextual() ||
            f[0]->text != "storage" || f[1]->kind != Kind::Global || !f[2]->isTextual() ||
            f[4]->kind != Kind::Int)
            fail("it refers to data in a form other than a tensor storage");
        const std::optional<c10::ScalarType> dtype = scalarTypeOf(f[1]->text);
        if (!dtype) fail("it holds a storage of unsupported type " + f[1]->text);
        const std::string& key = f[2]->text;
        if (auto cached = storages_.find(key); cached != storages_.end()) return cached->second;

        const std::string record = "data/" + key;
        if (!archive_.hasRecord(record)) fail("the record " + record + " is missing");
        const auto [data, size] = archive_.getRecord(record);
        const int64_t numel = f[4]->integer;
        uint64_t needed = 0;
        if (!pickle::storageBytes(numel, c10::elementSize(*dtype), needed))
            fail("record " + record + " claims " + std::to_string(numel) +
                 " elements, more than any file holds");
        if (size < needed)
            fail("record " + record + " holds " + std::to_string(size) +
                 " bytes but its storage needs " + std::to_string(needed));
        auto storage = pickle::makeTensorValue(
            Kind::Storage, torch::from_blob(data.get(), {int64_t(needed)}, torch::kUInt8).clone(),
            *dtype);
        storages_.emplace(key, storage);
        return storage;
    }

    // _rebuild_tensor[_v2|_v3](storage, offset, size, stride, ...): a strided
    // view of the storage, checked against its bounds first.
    ValuePtr rebuildTensor(const std::vector<ValuePtr>& args,
                           std::optional<c10::ScalarType> dtype) {
        if (args.size() < 4 || args[0]->kind != Kind::Storage || !args[0]->payload)
            fail("a tensor is not built from a storage");
        const pickle::TensorPayload& storage = *args[0]->payload;
        const c10::ScalarType type = dtype.value_or(storage.dtype);
        const torch::Tensor& bytes = storage.tensor;
        pickle::TensorLayout layout;
        if (std::string problem = pickle::readTensorLayout(args, layout); !problem.empty())
            fail(problem);
        const int64_t elements = bytes.numel() / int64_t(c10::elementSize(type));
        if (std::string problem = pickle::checkTensorLayout(layout, elements); !problem.empty())
            fail(problem);
        const torch::Tensor flat =
            bytes.narrow(0, 0, elements * int64_t(c10::elementSize(type))).view(type);
        return pickle::makeTensorValue(
            Kind::Tensor, flat.as_strided(layout.sizes, layout.strides, layout.offset));
    }

    ValuePtr call(const std::string& f, const std::vector<ValuePtr>& args) {
        if (f == "collections.OrderedDict" || f == "builtins.dict") return Value::make(Kind::Dict);
        if (f == "torch._utils._rebuild_tensor" || f == "torch._utils._rebuild_tensor_v2")
            return rebuildTensor(args, std::nullopt);
        if (f == "torch._utils._rebuild_tensor_v3") {
            if (args.size() < 7 || args[6]->kind != Kind::Global) fail("a tensor lacks its dtype");
            const auto dtype = scalarTypeOf(args[6]->text);
            if (!dtype) fail("it holds a tensor of unsupported dtype " + args[6]->text);
            return rebuildTensor(args, dtype);
        }
        if (f == "torch._utils._rebuild_parameter" ||
            f == "torch._utils._rebuild_parameter_with_state")
            return args.empty() ? nullptr : args[0];
        if (f == "torch._tensor._rebuild_from_type_v2" && args.size() >= 3 &&
            args[0]->kind == Kind::Global && args[2]->kind == Kind::Tuple)
            return call(args[0]->text, args[2]->items); // a Tensor subclass: keep the tensor
        if (f == "torch.Size" && args.size() == 1) return args[0];
        return nullptr;
    }

    caffe2::serialize::PyTorchStreamReader& archive_;
    const std::string& path_;
    std::map<std::string, ValuePtr> storages_;
};

} // namespace

pickle::ValuePtr readPythonCheckpoint(caffe2::serialize::PyTorchStreamReader& archive,
                                      const std::string& path) {
    return CheckpointReader(archive, path).read();
}

} // namespace ts
