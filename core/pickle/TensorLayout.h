#pragma once
// Where a tensor of a torch.save file lies in its storage: the offset, size
// and stride that torch._utils._rebuild_tensor[_v2|_v3] receive, read from the
// pickle's values and checked against the storage without LibTorch. The
// numbers come from the file, so every product and sum is checked for
// overflow: a size of 2^62 + 1 with a stride of 4 wraps to a reach of 0 in
// int64 arithmetic and would pass a plain check.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pickle/PickleValue.h"

namespace ts::pickle {

struct TensorLayout {
    int64_t offset = 0; // in elements
    std::vector<int64_t> sizes, strides;
};

// Reads offset, size and stride from a rebuild call's arguments (storage,
// offset, size, stride, ...). Returns what is wrong in plain words ("a
// tensor's size is not a tuple"), or "" with `out` filled.
std::string readTensorLayout(const std::vector<ValuePtr>& args, TensorLayout& out);

// "" when every element of the view lies inside a storage of `elements`
// elements; what is wrong otherwise.
std::string checkTensorLayout(const TensorLayout& layout, int64_t elements);

// numel elements of `element_size` bytes: false when negative or past
// uint64 (then `bytes` is untouched).
bool storageBytes(int64_t numel, size_t element_size, uint64_t& bytes);

} // namespace ts::pickle
