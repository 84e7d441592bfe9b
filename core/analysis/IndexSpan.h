#pragma once
// A run of int32 indices inside a flat list that another structure owns: a
// node's children or runtime calls (DeviceOpTree), a runtime call's device
// work (LaunchLinks). Millions of them would each cost an allocation and 24
// bytes as vectors; a view costs 16 and nothing more.
#include <cstddef>
#include <cstdint>

namespace ts {

class IndexSpan {
public:
    IndexSpan() = default;
    IndexSpan(const int32_t* first, size_t count) : first_(first), count_(count) {}
    const int32_t* begin() const { return first_; }
    const int32_t* end() const { return first_ + count_; }
    size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    int32_t operator[](size_t i) const { return first_[i]; }
    int32_t front() const { return first_[0]; }
    int32_t back() const { return first_[count_ - 1]; }

private:
    const int32_t* first_ = nullptr;
    size_t count_ = 0;
};

} // namespace ts
