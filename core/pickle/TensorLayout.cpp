#include "pickle/TensorLayout.h"

namespace ts::pickle {

namespace {

// A tuple of non-negative integers; "" or what is wrong with it.
std::string intTuple(const Value& v, const char* what, std::vector<int64_t>& out) {
    if (v.kind != Kind::Tuple) return std::string("a tensor's ") + what + " is not a tuple";
    out.clear();
    for (const ValuePtr& item : v.items) {
        if (!item || item->kind != Kind::Int || item->integer < 0)
            return std::string("a tensor's ") + what + " holds a non-integer or negative entry";
        out.push_back(item->integer);
    }
    return "";
}

} // namespace

std::string readTensorLayout(const std::vector<ValuePtr>& args, TensorLayout& out) {
    if (args.size() < 4 || !args[1] || !args[2] || !args[3])
        return "a tensor lacks its offset, size or stride";
    if (std::string problem = intTuple(*args[2], "size", out.sizes); !problem.empty())
        return problem;
    if (std::string problem = intTuple(*args[3], "stride", out.strides); !problem.empty())
        return problem;
    out.offset = args[1]->kind == Kind::Int ? args[1]->integer : -1;
    if (out.offset < 0 || out.sizes.size() != out.strides.size())
        return "a tensor has an invalid offset or stride";
    return "";
}

std::string checkTensorLayout(const TensorLayout& layout, int64_t elements) {
    if (layout.offset < 0 || layout.sizes.size() != layout.strides.size())
        return "a tensor has an invalid offset or stride";
    // The last element the view reaches: offset + sum((size - 1) * stride).
    // An empty view reaches none (torch stores such tensors with any offset).
    int64_t last = layout.offset;
    for (size_t d = 0; d < layout.sizes.size(); ++d) {
        if (layout.sizes[d] == 0) return "";
        if (layout.sizes[d] < 0 || layout.strides[d] < 0)
            return "a tensor has a negative size or stride";
    }
    for (size_t d = 0; d < layout.sizes.size(); ++d) {
        int64_t reach = 0;
        if (__builtin_mul_overflow(layout.sizes[d] - 1, layout.strides[d], &reach) ||
            __builtin_add_overflow(last, reach, &last))
            return "a tensor's size and stride reach past any storage (they overflow 64 bits)";
    }
    if (last >= elements) return "a tensor reaches past the end of its storage";
    return "";
}

bool storageBytes(int64_t numel, size_t element_size, uint64_t& bytes) {
    if (numel < 0) return false;
    uint64_t out = 0;
    if (__builtin_mul_overflow(static_cast<uint64_t>(numel), uint64_t(element_size), &out))
        return false;
    bytes = out;
    return true;
}

} // namespace ts::pickle
