#pragma once
// Why a LibTorch built with CUDA finds no GPU, in the words a user acts on:
// no NVIDIA driver at all, a driver too old for the CUDA LibTorch was built
// with, or a driver that does not start. Asks the driver itself (libcuda,
// opened at run time), not LibTorch, whose answer is only "not available".
#include <string>

namespace ts::gui {

// "" when the driver starts; `cuda_version` is LibTorch's ("13.0").
std::string cudaDriverProblem(const std::string& cuda_version);

} // namespace ts::gui
