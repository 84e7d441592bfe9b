#pragma once
// Floating point operations and bytes moved per operator, from its name and
// recorded inputs (dims, dtypes, non-tensor values), for the GFLOP/s column
// and roofline points. Conventions:
//  - 2 FLOPs per multiply-accumulate; bias additions are not counted, so a
//    model's conv + linear FLOPs are exactly 2 x its analytic MACs.
//  - bytes = tensor inputs read + outputs written, at the recorded dtype size.
//  - backward nodes (ConvolutionBackward0, ...) record no dims: their cost is
//    a multiple of the cost of the forward op they are linked to (2x for
//    convolution, matmul and normalization: gradient of input and of weight).
//  - Every computation is counted once: nested ops of one family
//    (aten::conv2d > aten::convolution > ... > aten::mkldnn_convolution) carry
//    FLOPs only on the innermost op that has them, and a backward node only
//    when none of the ops it ran have FLOPs of their own.
// FLOPs need the inputs, i.e. ProfileConfig::record_shapes (torch.profiler's
// record_shapes for a trace read without FLOPs: TraceBuilder estimates them).
#include <cstddef>
#include <cstdint>
#include <string>

#include "trace/OpInputs.h"
#include "trace/Trace.h"

namespace ts {

enum class OpFamily : uint8_t {
    None,
    Convolution,
    MatMul,
    Normalization,
    Pooling, // pooling and reductions (mean, sum)
    Elementwise,
    Softmax,
};
const char* toString(OpFamily family);

struct OpCost {
    double flops = 0;
    double bytes = 0;
    OpFamily family = OpFamily::None;
};

// Family of an operator ("aten::mkldnn_convolution") or backward node
// ("ConvolutionBackward0"); None when not modeled.
OpFamily opFamily(const std::string& name);
OpCost forwardOpCost(const std::string& name, const OpInputs& inputs);
OpCost backwardNodeCost(const std::string& node_name, const OpCost& forward);

// Fills TraceEvent::flops and bytes of a finalized trace by the rules above
// and returns how many events got FLOPs. A trace that already carries FLOPs
// (imported with them) is left as it is (0).
size_t annotateCosts(Trace& trace);

} // namespace ts
