#pragma once
// Which kernels run on Tensor Cores and which operators could use them (the
// TensorBoard plugin's name lists).
#include <string>

namespace ts {

// By a substring of the kernel name (h884, s1688, hmma, xmma_gemm, ...). The
// plugin's list predates Hopper: cuBLAS's nvjet_sm90_* GEMMs, cuDNN's
// sm90_xmma_* convolutions and *_wgmma_* attention kernels match none of it,
// so outside plugin-compatible mode the newer names count too.
bool isTensorCoreKernel(const std::string& kernel_name, bool plugin_compatible);
// By the exact operator name (aten::conv2d, aten::mm, aten::linear, ...).
bool isTensorCoreEligibleOp(const std::string& op_name);

} // namespace ts
