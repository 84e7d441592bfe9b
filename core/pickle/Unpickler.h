#pragma once
// A small pickle virtual machine: every opcode of protocols 2-5 that plain
// data and torch.save produce, plus protocol 0's text opcodes for numbers,
// strings, containers and the memo. LibTorch's own Unpickler cannot be used for
// Python state dicts: it turns collections.OrderedDict into None.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pickle/PickleValue.h"

namespace ts::pickle {

struct UnpickleHooks {
    // BINPERSID/PERSID: turns a persistent id into the object it stands for.
    std::function<ValuePtr(const ValuePtr& pid)> persistent_load;
    // REDUCE/NEWOBJ on a Global: returns the built object, or nullptr for an
    // unknown callable (the result then becomes an Opaque value naming it).
    std::function<ValuePtr(const std::string& callable, const std::vector<ValuePtr>& args)> call;
};

// Runs the pickle program in data[0, size). `origin` names the file in every
// error (PickleError), e.g. "'model.pt' (data.pkl)". What the hooks throw
// passes through.
ValuePtr unpickle(const uint8_t* data, size_t size, const std::string& origin,
                  const UnpickleHooks& hooks);

} // namespace ts::pickle
