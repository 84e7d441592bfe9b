#pragma once
// The tensors behind the pickle machine's Storage and Tensor values, as the
// Python checkpoint reader builds them (the machine itself has no LibTorch).
#include <utility>

#include <torch/torch.h>

#include "pickle/PickleValue.h"

namespace ts::pickle {

struct TensorPayload {
    torch::Tensor tensor;                          // Tensor; Storage: 1-D uint8 bytes
    c10::ScalarType dtype = c10::ScalarType::Byte; // Storage: its element type
};

inline ValuePtr makeTensorValue(Kind kind, torch::Tensor tensor,
                                c10::ScalarType dtype = c10::ScalarType::Byte) {
    auto out = Value::make(kind);
    out->payload = std::make_shared<TensorPayload>(TensorPayload{std::move(tensor), dtype});
    return out;
}

// The tensor a Storage or Tensor value holds; undefined for any other value.
inline torch::Tensor tensorOf(const Value& value) {
    return value.payload ? value.payload->tensor : torch::Tensor();
}

} // namespace ts::pickle
