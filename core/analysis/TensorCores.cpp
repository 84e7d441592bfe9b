#include "analysis/TensorCores.h"

#include <unordered_set>

namespace ts {

bool isTensorCoreKernel(const std::string& kernel_name, bool plugin_compatible) {
    // Names of PyTorch 2.x kernels on Ampere and Hopper (H100 traces of
    // ResNet-50 and a GPT decoder, bf16): any xmma or (w)gmma kernel, cuBLAS
    // nvjet, CUTLASS 3 and tensorop kernels (TensorOp in mangled names), flash and
    // memory-efficient attention.
    static const char* const kNewer[] = {"xmma",      "gmma",      "nvjet",
                                         "cutlass3x", "tensorop",  "TensorOp",
                                         "flash_fwd", "flash_bwd", "fmha"};
    if (!plugin_compatible)
        for (const char* p : kNewer)
            if (kernel_name.find(p) != std::string::npos) return true;
    static const char* const kPatterns[] = {"h884",
                                            "s884",
                                            "h1688",
                                            "s1688",
                                            "hmma",
                                            "i8816",
                                            "16816",
                                            "dgrad_1x1_stride_2x2",
                                            "first_layer_wgrad_kernel",
                                            "conv1x1",
                                            "conv2d_c1_k1",
                                            "direct_group",
                                            "xmma_implicit_gemm",
                                            "xmma_sparse_conv",
                                            "xmma_warp_specialized_implicit_gemm",
                                            "xmma_gemm",
                                            "xmma_sparse_gemm",
                                            "c1688"};
    for (const char* p : kPatterns)
        if (kernel_name.find(p) != std::string::npos) return true;
    return false;
}

bool isTensorCoreEligibleOp(const std::string& op_name) {
    static const std::unordered_set<std::string> kOps = {
        "aten::_convolution",
        "aten::conv1d",
        "aten::conv2d",
        "aten::conv3d",
        "aten::conv_tbc",
        "aten::conv_transpose1d",
        "aten::conv_transpose2d",
        "aten::conv_transpose3d",
        "aten::convolution",
        "aten::cudnn_convolution",
        "aten::cudnn_convolution_transpose",
        "aten::prelu",
        "aten::addmm",
        "aten::addmv",
        "aten::addr",
        "aten::matmul",
        "aten::mm",
        "aten::mv",
        "aten::linear",
        "aten::addbmm",
        "aten::baddbmm",
        "aten::bmm",
        "aten::chain_matmul",
        "aten::linalg_multi_dot",
        "aten::_thnn_fused_lstm_cell",
        "aten::_thnn_fused_gru_cell",
        "aten::lstm_cell",
        "aten::gru_cell",
        "aten::rnn_tanh_cell",
        "aten::rnn_relu_cell",
        "CudnnConvolutionBackward",
        "BmmBackward0",
        "aten::cudnn_convolution_transpose_backward",
        "CudnnConvolutionTransposeBackward",
        "MmBackward",
        "aten::cudnn_convolution_backward_weight",
        "aten::addmm_",
        "AddmvBackward",
        "MvBackward",
        "aten::cudnn_convolution_transpose_backward_weight",
        "aten::cudnn_convolution_transpose_backward_input",
        "AddmmBackward",
        "aten::cudnn_convolution_backward_input",
        "AddbmmBackward",
        "aten::cudnn_convolution_backward"};
    return kOps.count(op_name) != 0;
}

} // namespace ts
