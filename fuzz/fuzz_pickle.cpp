// The pickle machine (pickle/Unpickler.h) that runs a Python checkpoint's
// data.pkl, with hooks shaped like the weights reader's (models/
// PythonCheckpoint.cpp), minus the tensors: a persistent id ('storage', type,
// key, location, numel) becomes a Storage of numel elements, the callables
// torch.save uses become dicts and tensors of a storage. A tensor's offset,
// size and stride go through the reader's own checks (pickle/TensorLayout.h);
// a view they accept must lie inside its storage, recomputed here in 128-bit
// arithmetic. Anything but a program the machine runs is a PickleError naming
// the file; what it returns is a sound graph.
//
// Input: the data.pkl bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "FuzzSupport.h"
#include "pickle/PickleError.h"
#include "pickle/TensorLayout.h"
#include "pickle/Unpickler.h"

namespace {

using ts::pickle::Kind;
using ts::pickle::PickleError;
using ts::pickle::Value;
using ts::pickle::ValuePtr;

const std::string kOrigin = "'fuzz.pt' (data.pkl)";

ValuePtr loadStorage(const ValuePtr& pid) {
    const auto& f = pid->items;
    if (pid->kind != Kind::Tuple || f.size() < 5 || !f[0]->isTextual() || f[0]->text != "storage")
        throw PickleError("Cannot read " + kOrigin + ": not a storage");
    ValuePtr storage = Value::make(Kind::Storage);
    storage->integer = f[4]->kind == Kind::Int ? f[4]->integer : 0; // its elements
    return storage;
}

// The reader's checks on a view, and the property that an accepted view
// reaches no element past its storage's.
ValuePtr rebuildTensor(const std::vector<ValuePtr>& args) {
    if (args.empty() || args[0]->kind != Kind::Storage)
        throw PickleError("Cannot read " + kOrigin + ": a tensor without a storage");
    const int64_t elements = args[0]->integer;
    ts::pickle::TensorLayout layout;
    std::string problem = ts::pickle::readTensorLayout(args, layout);
    if (problem.empty()) problem = ts::pickle::checkTensorLayout(layout, elements);
    if (!problem.empty()) throw PickleError("Cannot read " + kOrigin + ": " + problem);
    __int128 last = layout.offset;
    bool empty = false;
    for (size_t d = 0; d < layout.sizes.size(); ++d) {
        empty = empty || layout.sizes[d] == 0;
        last += static_cast<__int128>(layout.sizes[d] - 1) * layout.strides[d];
    }
    if (!empty && (layout.offset < 0 || last >= elements))
        ts::fuzz::propertyBroken("a tensor view accepted past the end of its storage");
    return Value::make(Kind::Tensor);
}

ValuePtr call(const std::string& f, const std::vector<ValuePtr>& args) {
    if (f == "collections.OrderedDict" || f == "builtins.dict") return Value::make(Kind::Dict);
    if (f.rfind("torch._utils._rebuild_tensor", 0) == 0) return rebuildTensor(args);
    if (f == "torch._utils._rebuild_parameter") return args.empty() ? nullptr : args[0];
    return nullptr;
}

// Every value reachable from the result, once each (without recursion: a
// pickle may nest as deep as its bytes allow): no null pointers, and each
// dict's index points at an entry with that key.
void checkGraph(const ValuePtr& top) {
    if (!top) ts::fuzz::propertyBroken("unpickle returned no value");
    std::vector<const Value*> todo{top.get()};
    std::unordered_set<const Value*> seen;
    while (!todo.empty()) {
        const Value* v = todo.back();
        todo.pop_back();
        if (!seen.insert(v).second) continue;
        for (const ValuePtr& item : v->items) {
            if (!item) ts::fuzz::propertyBroken("a null item in a container");
            todo.push_back(item.get());
        }
        for (const auto& [key, value] : v->entries) {
            if (!key || !value) ts::fuzz::propertyBroken("a null dict key or value");
            todo.push_back(key.get());
            todo.push_back(value.get());
        }
        for (const auto& [key, at] : v->index)
            if (at >= v->entries.size()) ts::fuzz::propertyBroken("a dict index past its entries");
        for (const auto& [key, value] : v->entries)
            if (key->kind == Kind::String && v->get(key->text) != value)
                ts::fuzz::propertyBroken("a dict whose lookup misses one of its string keys");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    ts::pickle::UnpickleHooks hooks;
    hooks.persistent_load = loadStorage;
    hooks.call = call;
    try {
        checkGraph(ts::pickle::unpickle(data, size, kOrigin, hooks));
    } catch (const PickleError& e) {
        if (std::string(e.what()).find(kOrigin) == std::string::npos)
            ts::fuzz::propertyBroken(std::string("an error that does not name the file: ") +
                                     e.what());
    }
    return 0;
}
