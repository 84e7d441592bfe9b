#pragma once
// Which kernels run on Tensor Cores and which operators could use them (the
// TensorBoard plugin's name lists).
#include <string>

namespace ts {

// By a substring of the kernel name (h884, s1688, hmma, xmma_gemm, ...).
bool isTensorCoreKernel(const std::string& kernel_name);
// By the exact operator name (aten::conv2d, aten::mm, aten::linear, ...).
bool isTensorCoreEligibleOp(const std::string& op_name);

} // namespace ts
