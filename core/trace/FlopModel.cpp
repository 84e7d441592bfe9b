#include "trace/FlopModel.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

namespace ts {

namespace {

// FLOPs per element of the normalization ops: mean, variance, normalize,
// scale, shift.
constexpr double kNormFlopsPerElement = 5;
// max, subtract, exp, sum, divide (or log).
constexpr double kSoftmaxFlopsPerElement = 5;

std::string stripNamespace(const std::string& name) {
    const size_t colon = name.rfind("::");
    return colon == std::string::npos ? name : name.substr(colon + 2);
}

double tensorBytes(const OpInputs& in, size_t i) {
    return static_cast<double>(numel(in.dimsAt(i))) * elementSize(in.typeAt(i));
}

// Dims of a tensor argument; false when it was not recorded as one.
bool tensorAt(const OpInputs& in, size_t i, Dims& dims) {
    if (i >= in.size() || in.typeAt(i).empty()) return false;
    dims = in.dimsAt(i);
    return true;
}

// Value i of an int-list argument (a one-element list applies to every
// dimension); `fallback` when the argument is absent or empty.
int64_t listValue(const std::vector<int64_t>& list, size_t i, int64_t fallback) {
    if (list.empty()) return fallback;
    return list.size() == 1 ? list[0] : (i < list.size() ? list[i] : fallback);
}

// ---- convolution -----------------------------------------------------------

struct ConvLayout {
    int stride = -1, padding = -1, dilation = -1, transposed = -1, output_mask = -1;
    int first_tensor = 0; // index of the input (grad_output for backward)
    bool always_transposed = false;
    double passes = 1; // 2 for backward (input and weight gradients)
};

const std::unordered_map<std::string, ConvLayout>& convLayouts() {
    static const std::unordered_map<std::string, ConvLayout> kLayouts = {
        {"conv1d", {3, 4, 5}},
        {"conv2d", {3, 4, 5}},
        {"conv3d", {3, 4, 5}},
        {"convolution", {3, 4, 5, 6}},
        {"_convolution", {3, 4, 5, 6}},
        {"conv_transpose1d", {3, 4, 7, -1, -1, 0, true}},
        {"conv_transpose2d", {3, 4, 7, -1, -1, 0, true}},
        {"conv_transpose3d", {3, 4, 7, -1, -1, 0, true}},
        {"mkldnn_convolution", {4, 3, 5}},
        {"miopen_convolution", {4, 3, 5}},
        {"cudnn_convolution", {3, 2, 4}},
        {"cudnn_convolution_transpose", {4, 2, 5, -1, -1, 0, true}},
        {"_nnpack_spatial_convolution", {4, 3, -1}},
        {"thnn_conv2d", {4, 5, -1}},
        {"_slow_conv2d_forward", {4, 5, -1}},
        {"slow_conv_dilated2d", {4, 5, 6}},
        {"_conv_depthwise2d", {4, 5, 6}},
        {"convolution_backward", {4, 5, 6, 7, 10, 1, false, 2}},
    };
    return kLayouts;
}

// Output spatial size of a convolution or pooling window.
int64_t windowOutput(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
    const int64_t span = in + 2 * p - d * (k - 1) - 1;
    if (s <= 0 || span < 0) return 0;
    return (ceil_mode ? (span + s - 1) / s : span / s) + 1;
}

// Number of gradients convolution_backward computes among input and weight.
double backwardPasses(const OpInputs& in, const ConvLayout& layout) {
    if (layout.output_mask < 0) return layout.passes;
    const std::string& mask = in.argAt(static_cast<size_t>(layout.output_mask));
    if (mask.empty()) return layout.passes;
    double passes = 0;
    size_t pos = 0;
    for (int i = 0; i < 2; ++i) {
        const size_t t = mask.find("True", pos), f = mask.find("False", pos);
        if (t == std::string::npos && f == std::string::npos) break;
        passes += t < f ? 1 : 0;
        pos = std::min(t, f) + 1;
    }
    return passes;
}

// Padding given as text ("same"/"valid", conv2d.padding) or a list.
bool resolvePadding(const std::string& arg, std::vector<int64_t>& padding, bool& same) {
    same = arg == "same";
    if (same || arg == "valid") return true;
    padding = parseIntList(arg);
    return !padding.empty();
}

// Output spatial sizes of a (non-transposed) convolution of `x` by `w`;
// empty when the recorded inputs do not tell.
Dims convOutputSpatial(const std::string& op, const ConvLayout& layout, const OpInputs& in,
                       const Dims& x, const Dims& w) {
    const size_t spatial = x.size() - 2;
    Dims out;
    // convolution_backward's grad_output has the output dims outright.
    Dims grad_out;
    if (op == "convolution_backward" && tensorAt(in, 0, grad_out) && grad_out.size() == x.size())
        return Dims(grad_out.begin() + 2, grad_out.end());
    const auto stride = parseIntList(in.argAt(static_cast<size_t>(layout.stride)));
    std::vector<int64_t> padding;
    bool same = false;
    if (stride.empty() ||
        !resolvePadding(in.argAt(static_cast<size_t>(layout.padding)), padding, same))
        return {};
    const auto dilation =
        layout.dilation < 0 ? std::vector<int64_t>{} : parseIntList(in.argAt(layout.dilation));
    for (size_t i = 0; i < spatial; ++i) {
        out.push_back(same ? x[2 + i]
                           : windowOutput(x[2 + i], w[2 + i], listValue(stride, i, 1),
                                          listValue(padding, i, 0), listValue(dilation, i, 1),
                                          false));
    }
    return out;
}

OpCost convCost(const std::string& op, const ConvLayout& layout, const OpInputs& in) {
    Dims x, w;
    const size_t xi = static_cast<size_t>(layout.first_tensor);
    if (!tensorAt(in, xi, x) || !tensorAt(in, xi + 1, w) || w.size() < 3) return {};
    if (x.size() + 1 == w.size()) x.insert(x.begin(), 1); // unbatched input
    if (x.size() != w.size()) return {};
    const bool transposed = layout.always_transposed ||
                            (layout.transposed >= 0 && in.argAt(layout.transposed) == "True");
    // Non-transposed: every output position meets Cin/g x kernel weights of
    // each of Cout filters, weight [Cout, Cin/g, k...]. Transposed: every
    // input position meets the kernel, weight [Cin, Cout/g, k...].
    const Dims positions_dims =
        transposed ? Dims(x.begin() + 2, x.end()) : convOutputSpatial(op, layout, in, x, w);
    if (positions_dims.size() != x.size() - 2) return {};
    double positions = static_cast<double>(x[0]);
    for (int64_t d : positions_dims)
        positions *= static_cast<double>(d);
    double kernel = 1;
    for (size_t i = 2; i < w.size(); ++i)
        kernel *= static_cast<double>(w[i]);
    const double macs = positions * static_cast<double>(w[0]) * static_cast<double>(w[1]) * kernel;
    const double out_bytes =
        positions * static_cast<double>(transposed ? w[1] : w[0]) * elementSize(in.typeAt(xi));
    const double passes = op == "convolution_backward" ? backwardPasses(in, layout) : 1;
    OpCost cost;
    cost.family = OpFamily::Convolution;
    cost.flops = 2 * macs * passes;
    cost.bytes =
        (tensorBytes(in, xi) + tensorBytes(in, xi + 1) + out_bytes) * std::max(passes, 1.0);
    return cost;
}

// ---- matrix products -------------------------------------------------------

double batchOf(const Dims& d, size_t matrix_dims) {
    double b = 1;
    for (size_t i = 0; i + matrix_dims < d.size(); ++i)
        b *= static_cast<double>(d[i]);
    return b;
}

// a @ b with torch.matmul's broadcasting; false for mismatched dims.
bool matmulShape(const Dims& a, const Dims& b, double& batch, double& m, double& k, double& n) {
    if (a.empty() || b.empty()) return false;
    k = static_cast<double>(a.back());
    m = a.size() >= 2 ? static_cast<double>(a[a.size() - 2]) : 1;
    n = b.size() >= 2 ? static_cast<double>(b.back()) : 1;
    const int64_t kb = b.size() >= 2 ? b[b.size() - 2] : b[0];
    if (kb != a.back()) return false;
    batch = std::max(batchOf(a, 2), batchOf(b, 2));
    return true;
}

OpCost matmulCost(const std::string& op, const OpInputs& in) {
    Dims a, b;
    size_t ai = 0;
    if (op == "addmm" || op == "baddbmm" || op == "addmv" || op == "addbmm" ||
        op == "_addmm_activation")
        ai = 1;
    if (!tensorAt(in, ai, a) || !tensorAt(in, ai + 1, b)) return {};
    double batch = 1, m = 1, k = 1, n = 1;
    if (op == "linear") {
        // weight is [out, in]: x @ w.T
        if (b.size() != 2 || a.empty() || a.back() != b[1]) return {};
        batch = batchOf(a, 1);
        k = static_cast<double>(b[1]);
        n = static_cast<double>(b[0]);
    } else if (!matmulShape(a, b, batch, m, k, n)) {
        return {};
    }
    OpCost cost;
    cost.family = OpFamily::MatMul;
    cost.flops = 2 * batch * m * k * n;
    cost.bytes =
        tensorBytes(in, ai) + tensorBytes(in, ai + 1) + batch * m * n * elementSize(in.typeAt(ai));
    return cost;
}

// ---- attention ---------------------------------------------------------------

// scaled_dot_product_attention's fused kernels: q [..., L, E], k [..., S, E],
// v [..., S, Ev]; the scores q k^T and the output scores v, two products.
// Their backward (grad_out first, then q, k, v) recomputes the scores and
// takes four more (grads of the scores, of v, q and k), as torch's
// FlopCounterMode counts them: 2 L S (3 E + 2 Ev) per batch and head.
OpCost attentionCost(const OpInputs& in, bool backward) {
    Dims q, k, v;
    const size_t qi = backward ? 1 : 0;
    if (!tensorAt(in, qi, q) || !tensorAt(in, qi + 1, k) || !tensorAt(in, qi + 2, v) ||
        q.size() < 2 || k.size() != q.size() || v.size() != q.size())
        return {};
    const double batch = std::max(batchOf(q, 2), batchOf(k, 2));
    const double l = static_cast<double>(q[q.size() - 2]), e = static_cast<double>(q.back());
    const double s = static_cast<double>(k[k.size() - 2]), ev = static_cast<double>(v.back());
    const double inputs = tensorBytes(in, qi) + tensorBytes(in, qi + 1) + tensorBytes(in, qi + 2);
    const double out = batch * l * ev * elementSize(in.typeAt(qi));
    OpCost cost;
    cost.family = OpFamily::MatMul;
    cost.flops = backward ? 2 * batch * l * s * (3 * e + 2 * ev) : 2 * batch * l * s * (e + ev);
    cost.bytes = backward ? tensorBytes(in, 0) + 2 * inputs + out : inputs + out;
    return cost;
}

// ---- normalization, pooling, elementwise, softmax ---------------------------

OpCost perElementCost(const OpInputs& in, OpFamily family, double flops_per_element,
                      size_t input = 0) {
    Dims x;
    if (!tensorAt(in, input, x)) return {};
    const double n = static_cast<double>(numel(x));
    return OpCost{flops_per_element * n, 2 * n * elementSize(in.typeAt(input)), family};
}

OpCost windowPoolCost(const std::string& op, const OpInputs& in) {
    Dims x;
    const auto kernel = parseIntList(in.argAt(1));
    if (!tensorAt(in, 0, x) || x.size() < 3 || kernel.empty()) return {};
    auto stride = parseIntList(in.argAt(2));
    if (stride.empty()) stride = kernel; // torch's default: stride = kernel_size
    const auto padding = parseIntList(in.argAt(3));
    const bool max_pool = op.rfind("max_pool", 0) == 0;
    const auto dilation = max_pool ? parseIntList(in.argAt(4)) : std::vector<int64_t>{};
    const bool ceil_mode = in.argAt(max_pool ? 5 : 4) == "True";
    const size_t spatial = op.find("1d") != std::string::npos   ? 1
                           : op.find("3d") != std::string::npos ? 3
                                                                : 2;
    if (x.size() < spatial) return {};
    double out = 1, window = 1;
    for (size_t i = 0; i + spatial < x.size(); ++i)
        out *= static_cast<double>(x[i]);
    for (size_t i = 0; i < spatial; ++i) {
        const int64_t k = listValue(kernel, i, 1);
        window *= static_cast<double>(k);
        out *= static_cast<double>(windowOutput(x[x.size() - spatial + i], k,
                                                listValue(stride, i, k), listValue(padding, i, 0),
                                                listValue(dilation, i, 1), ceil_mode));
    }
    const double esize = elementSize(in.typeAt(0));
    return OpCost{out * window, (static_cast<double>(numel(x)) + out) * esize, OpFamily::Pooling};
}

OpCost elementwiseCost(const OpInputs& in, double flops_per_element) {
    double largest = 0, bytes = 0;
    int esize = 4;
    for (size_t i = 0; i < in.size(); ++i) {
        if (in.typeAt(i).empty() || in.typeAt(i) == "TensorList") continue;
        const double n = static_cast<double>(numel(in.dimsAt(i)));
        bytes += tensorBytes(in, i);
        if (n > largest) {
            largest = n;
            esize = elementSize(in.typeAt(i));
        }
    }
    if (largest == 0) return {};
    // The output has the broadcast shape, i.e. as many elements as the largest input.
    return OpCost{flops_per_element * largest, bytes + largest * esize, OpFamily::Elementwise};
}

struct CostRule {
    OpFamily family;
    std::function<OpCost(const std::string& op, const OpInputs&)> cost;
};

const std::unordered_map<std::string, CostRule>& costTable() {
    static const std::unordered_map<std::string, CostRule> kTable = [] {
        std::unordered_map<std::string, CostRule> t;
        for (const char* op : {"mm", "addmm", "bmm", "baddbmm", "addbmm", "matmul", "linear", "mv",
                               "addmv", "dot", "_addmm_activation"})
            t[op] = {OpFamily::MatMul, matmulCost};
        for (const char* op :
             {"scaled_dot_product_attention", "_scaled_dot_product_flash_attention_for_cpu",
              "_scaled_dot_product_flash_attention", "_scaled_dot_product_efficient_attention",
              "_scaled_dot_product_cudnn_attention"})
            t[op] = {OpFamily::MatMul, [](const std::string&, const OpInputs& in) {
                         return attentionCost(in, false);
                     }};
        for (const char* op : {"_scaled_dot_product_flash_attention_for_cpu_backward",
                               "_scaled_dot_product_flash_attention_backward",
                               "_scaled_dot_product_efficient_attention_backward",
                               "_scaled_dot_product_cudnn_attention_backward"})
            t[op] = {OpFamily::MatMul, [](const std::string&, const OpInputs& in) {
                         return attentionCost(in, true);
                     }};
        for (const char* op :
             {"batch_norm", "_batch_norm_impl_index", "native_batch_norm",
              "_native_batch_norm_legit", "_native_batch_norm_legit_no_training",
              "cudnn_batch_norm", "miopen_batch_norm", "layer_norm", "native_layer_norm",
              "group_norm", "native_group_norm", "instance_norm"})
            t[op] = {OpFamily::Normalization, [](const std::string&, const OpInputs& in) {
                         return perElementCost(in, OpFamily::Normalization, kNormFlopsPerElement);
                     }};
        // Gradients of input, weight and bias: twice the forward work.
        for (const char* op : {"native_batch_norm_backward", "cudnn_batch_norm_backward",
                               "miopen_batch_norm_backward", "native_layer_norm_backward",
                               "native_group_norm_backward"})
            t[op] = {OpFamily::Normalization, [](const std::string&, const OpInputs& in) {
                         return perElementCost(in, OpFamily::Normalization,
                                               2 * kNormFlopsPerElement);
                     }};
        // One pass over the gradient of the input (argument 1, `self`).
        for (const char* op : {"max_pool2d_with_indices_backward", "avg_pool2d_backward",
                               "_adaptive_avg_pool2d_backward", "adaptive_avg_pool2d_backward"})
            t[op] = {OpFamily::Pooling, [](const std::string&, const OpInputs& in) {
                         return perElementCost(in, OpFamily::Pooling, 1, /*input=*/1);
                     }};
        for (const char* op : {"_softmax_backward_data", "_log_softmax_backward_data"})
            t[op] = {OpFamily::Softmax, [](const std::string&, const OpInputs& in) {
                         return perElementCost(in, OpFamily::Softmax, kSoftmaxFlopsPerElement);
                     }};
        for (const char* op : {"max_pool1d", "max_pool2d", "max_pool3d", "max_pool2d_with_indices",
                               "max_pool3d_with_indices", "avg_pool1d", "avg_pool2d", "avg_pool3d"})
            t[op] = {OpFamily::Pooling, windowPoolCost};
        for (const char* op :
             {"adaptive_avg_pool1d", "adaptive_avg_pool2d", "_adaptive_avg_pool2d",
              "adaptive_avg_pool3d", "_adaptive_avg_pool3d", "adaptive_max_pool2d", "mean", "sum"})
            t[op] = {OpFamily::Pooling, [](const std::string&, const OpInputs& in) {
                         return perElementCost(in, OpFamily::Pooling, 1);
                     }};
        for (const char* op : {"softmax", "_softmax", "log_softmax", "_log_softmax"})
            t[op] = {OpFamily::Softmax, [](const std::string&, const OpInputs& in) {
                         return perElementCost(in, OpFamily::Softmax, kSoftmaxFlopsPerElement);
                     }};
        for (const char* op : {"add",
                               "add_",
                               "sub",
                               "sub_",
                               "mul",
                               "mul_",
                               "div",
                               "div_",
                               "relu",
                               "relu_",
                               "clamp",
                               "clamp_",
                               "clamp_min",
                               "clamp_min_",
                               "threshold",
                               "threshold_",
                               "threshold_backward",
                               "sigmoid",
                               "sigmoid_",
                               "sigmoid_backward",
                               "tanh",
                               "tanh_",
                               "tanh_backward",
                               "hardtanh",
                               "hardtanh_",
                               "hardtanh_backward",
                               "gelu",
                               "gelu_backward",
                               "silu",
                               "silu_",
                               "silu_backward",
                               "neg",
                               "exp",
                               "log",
                               "sqrt",
                               "rsqrt",
                               "reciprocal",
                               "pow"})
            t[op] = {OpFamily::Elementwise,
                     [](const std::string&, const OpInputs& in) { return elementwiseCost(in, 1); }};
        for (const char* op : {"addcmul", "addcmul_", "addcdiv", "addcdiv_", "lerp", "lerp_"})
            t[op] = {OpFamily::Elementwise,
                     [](const std::string&, const OpInputs& in) { return elementwiseCost(in, 2); }};
        return t;
    }();
    return kTable;
}

// Backward node -> (family, multiple of the forward op's cost).
struct NodeRule {
    OpFamily family;
    double factor;
};

const std::unordered_map<std::string, NodeRule>& nodeRules() {
    static const std::unordered_map<std::string, NodeRule> kRules = [] {
        std::unordered_map<std::string, NodeRule> r;
        for (const char* n : {"Convolution", "ConvolutionBackwardOverrideable", "MkldnnConvolution",
                              "CudnnConvolution", "SlowConv2D", "ThnnConv2D", "SlowConvDilated2D",
                              "ConvDepthwise2D", "CudnnConvolutionTranspose"})
            r[n] = {OpFamily::Convolution, 2};
        for (const char* n : {"Addmm", "Mm", "Bmm", "Baddbmm", "Addbmm", "Mv", "Addmv", "Linear",
                              "Matmul", "Dot", "AddmmActivation"})
            r[n] = {OpFamily::MatMul, 2};
        for (const char* n : {"NativeBatchNorm", "CudnnBatchNorm", "MiopenBatchNorm",
                              "NativeLayerNorm", "NativeGroupNorm", "NativeBatchNormLegit"})
            r[n] = {OpFamily::Normalization, 2};
        for (const char* n : {"MaxPool2DWithIndices", "MaxPool3DWithIndices", "AvgPool2D",
                              "AvgPool3D", "AdaptiveAvgPool2D", "AdaptiveMaxPool2D", "Mean", "Sum"})
            r[n] = {OpFamily::Pooling, 1};
        for (const char* n : {"Relu", "Threshold", "Sigmoid", "Tanh", "Hardtanh", "Gelu", "Silu",
                              "ClampMin", "Clamp", "Neg", "Exp", "Sqrt", "Rsqrt"})
            r[n] = {OpFamily::Elementwise, 1};
        for (const char* n : {"Mul", "Div"})
            r[n] = {OpFamily::Elementwise, 2};
        for (const char* n : {"Softmax", "LogSoftmax"})
            r[n] = {OpFamily::Softmax, 1};
        return r;
    }();
    return kRules;
}

// "ConvolutionBackward0" -> "Convolution"; "" when not a node name.
std::string nodeBase(const std::string& name) {
    size_t end = name.size();
    while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9')
        --end;
    static const std::string kSuffix = "Backward";
    if (end < kSuffix.size() || name.compare(end - kSuffix.size(), kSuffix.size(), kSuffix) != 0)
        return {};
    return name.substr(0, end - kSuffix.size());
}

} // namespace

const char* toString(OpFamily family) {
    switch (family) {
    case OpFamily::None:
        return "none";
    case OpFamily::Convolution:
        return "convolution";
    case OpFamily::MatMul:
        return "matmul";
    case OpFamily::Normalization:
        return "normalization";
    case OpFamily::Pooling:
        return "pooling";
    case OpFamily::Elementwise:
        return "elementwise";
    case OpFamily::Softmax:
        return "softmax";
    }
    return "none";
}

OpFamily opFamily(const std::string& name) {
    const std::string base = nodeBase(name);
    if (!base.empty()) {
        auto it = nodeRules().find(base);
        return it == nodeRules().end() ? OpFamily::None : it->second.family;
    }
    const std::string op = stripNamespace(name);
    if (convLayouts().count(op)) return OpFamily::Convolution;
    auto it = costTable().find(op);
    return it == costTable().end() ? OpFamily::None : it->second.family;
}

OpCost forwardOpCost(const std::string& name, const OpInputs& inputs) {
    const std::string op = stripNamespace(name);
    auto conv = convLayouts().find(op);
    if (conv != convLayouts().end()) return convCost(op, conv->second, inputs);
    auto it = costTable().find(op);
    return it == costTable().end() ? OpCost{} : it->second.cost(op, inputs);
}

OpCost backwardNodeCost(const std::string& node_name, const OpCost& forward) {
    auto it = nodeRules().find(nodeBase(node_name));
    if (it == nodeRules().end()) return {};
    return OpCost{forward.flops * it->second.factor, forward.bytes * it->second.factor,
                  it->second.family};
}

} // namespace ts
