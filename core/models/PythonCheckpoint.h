#pragma once
// Reads the object graph of a Python `torch.save` zip file (PyTorch >= 1.6):
// data.pkl unpickled, tensors rebuilt from the data/<key> storage records.
#include <string>

#include "pickle/PickleValue.h"

namespace caffe2::serialize {
class PyTorchStreamReader;
}

namespace ts {

// `archive` is the opened zip of `path` (path is only used in messages).
// Tensors land on the CPU whatever device they were saved from.
pickle::ValuePtr readPythonCheckpoint(caffe2::serialize::PyTorchStreamReader& archive,
                                      const std::string& path);

} // namespace ts
