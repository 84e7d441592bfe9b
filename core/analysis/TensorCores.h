#pragma once
// Which kernels run on Tensor Cores and which operators could use them (the
// TensorBoard plugin's name lists).
#include <cstdint>
#include <string>
#include <vector>

namespace ts {

// By a substring of the kernel name (h884, s1688, hmma, xmma_gemm, ...).
bool isTensorCoreKernel(const std::string& kernel_name);
// By the exact operator name (aten::conv2d, aten::mm, aten::linear, ...).
bool isTensorCoreEligibleOp(const std::string& op_name);

// Both, once per interned name (Trace::names): a trace repeats a few thousand
// names over millions of events, and the substring tests are the costly part.
class TensorCoreNames {
public:
    explicit TensorCoreNames(const std::vector<std::string>& names);
    bool kernel(uint32_t name) const { return flags_[name] & kKernel; }
    bool eligibleOp(uint32_t name) const { return flags_[name] & kEligibleOp; }

private:
    static constexpr unsigned char kKernel = 1, kEligibleOp = 2;
    std::vector<unsigned char> flags_;
};

} // namespace ts
