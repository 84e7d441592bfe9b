#include "SyntheticTrace.h"

#include <random>
#include <string>
#include <vector>

namespace ts::testing {
namespace {

constexpr int kOpsPerPhase = 20;

const char* const kForwardOps[] = {
    "aten::conv2d", "aten::batch_norm", "aten::relu_", "aten::add_",  "aten::max_pool2d",
    "aten::linear", "aten::addmm",      "aten::view",  "aten::empty", "aten::copy_"};
const char* const kBackwardOps[] = {"ConvolutionBackward0", "NativeBatchNormBackward0",
                                    "ReluBackward0", "AddBackward0", "AddmmBackward0"};
const char* const kLeafOps[] = {"aten::mkldnn_convolution", "aten::empty_like", "aten::fill_",
                                "aten::mm", "aten::as_strided"};

TraceEvent event(Trace& trace, const std::string& name, EventKind kind, int32_t lane, int64_t start,
                 int64_t dur, int64_t step) {
    TraceEvent e;
    e.name = trace.internName(name);
    e.kind = kind;
    e.lane = lane;
    e.start_ns = start;
    e.dur_ns = dur;
    e.step = step;
    return e;
}

// One operator with 0..3 leaf children laid out inside it.
int64_t addOperator(Trace& trace, std::mt19937& rng, int32_t lane, int64_t t, int64_t step,
                    bool backward, int64_t seq, bool op_fields) {
    std::uniform_int_distribution<int> pick_fwd(0, 9), pick_bwd(0, 4), pick_leaf(0, 4),
        children(0, 3);
    std::uniform_int_distribution<int64_t> leaf_dur(200, 20000), gap(50, 2000);
    const int n = children(rng);
    TraceEvent op =
        event(trace, backward ? kBackwardOps[pick_bwd(rng)] : kForwardOps[pick_fwd(rng)],
              backward ? EventKind::Backward : EventKind::Operator, lane, t, 0, step);
    op.seq = seq;
    int64_t cursor = t + gap(rng);
    for (int c = 0; c < n; ++c) {
        const int64_t d = leaf_dur(rng);
        TraceEvent leaf =
            event(trace, kLeafOps[pick_leaf(rng)], EventKind::Operator, lane, cursor, d, step);
        if (op_fields) leaf.flops = double(d) * 50.0;
        trace.events.push_back(leaf);
        cursor += d + gap(rng);
    }
    op.dur_ns = cursor - t + leaf_dur(rng);
    if (op_fields) {
        op.flops = double(op.dur_ns) * 20.0;
        op.shapes = trace.internString("[[16, 64, 32, 32], [64, 64, 3, 3]]");
    } else {
        op.seq = -1;
    }
    trace.events.push_back(op);
    return t + op.dur_ns;
}

} // namespace

Trace makeSyntheticTrace(const SyntheticTraceSpec& spec) {
    Trace trace;
    trace.source = "synthetic";
    std::mt19937 rng(spec.seed);
    std::uniform_int_distribution<int64_t> gap(100, 3000);
    for (int l = 0; l < spec.lanes; ++l)
        trace.laneFor(1000 + l, false,
                      "thread " + std::to_string(1000 + l) + (l == 0 ? " (main)" : ""));
    const int64_t per_lane = spec.events / spec.lanes;
    // A step overshoots a lane's share by at most its own events (~250).
    trace.events.reserve(size_t(spec.events + spec.lanes * 512));
    for (int32_t lane = 0; lane < spec.lanes; ++lane) {
        int64_t t = 0, step = 0;
        const size_t lane_begin = trace.events.size();
        while (int64_t(trace.events.size() - lane_begin) < per_lane) {
            const size_t step_index = trace.events.size();
            trace.events.push_back(event(trace, "ProfilerStep#" + std::to_string(step),
                                         EventKind::Annotation, lane, t, 0, step));
            const int64_t step_start = t;
            for (const char* phase : {"forward", "backward", "optimizer"}) {
                const size_t phase_index = trace.events.size();
                trace.events.push_back(
                    event(trace, phase, EventKind::Annotation, lane, t, 0, step));
                const int64_t phase_start = t;
                t += gap(rng);
                // Backward nodes run in reverse order and carry their forward op's sequence number.
                const bool backward = std::string(phase) == "backward";
                for (int op = 0; op < kOpsPerPhase; ++op) {
                    const int64_t seq =
                        step * kOpsPerPhase + (backward ? kOpsPerPhase - 1 - op : op);
                    t = addOperator(trace, rng, lane, t, step, backward, seq, spec.op_fields) +
                        gap(rng);
                }
                trace.events.edit(phase_index, [&](TraceEvent& e) { e.dur_ns = t - phase_start; });
                t += gap(rng);
            }
            trace.events.edit(step_index, [&](TraceEvent& e) { e.dur_ns = t - step_start; });
            if (lane == 0) trace.steps.push_back({step, step_start, t});
            ++step;
            t += gap(rng);
        }
    }
    trace.finalize();
    return trace;
}

Trace makeTinyTrace() {
    Trace trace;
    trace.source = "tiny";
    const int32_t main = trace.laneFor(1, false, "thread 1 (main)");
    const int32_t worker = trace.laneFor(2, false, "thread 2 (loader)");
    trace.events.push_back(event(trace, "step", EventKind::Annotation, main, 0, 1000, 0));
    TraceEvent conv = event(trace, "aten::conv2d", EventKind::Operator, main, 100, 300, 0);
    conv.seq = 5;
    conv.flops = 3e6;
    conv.shapes = trace.internString("[[16, 3, 32, 32], [64, 3, 3, 3]]");
    trace.events.push_back(conv);
    trace.events.push_back(event(trace, "aten::mm", EventKind::Operator, main, 150, 100, 0));
    trace.events.push_back(event(trace, "aten::relu", EventKind::Operator, main, 500, 100, 0));
    TraceEvent backward =
        event(trace, "ConvolutionBackward0", EventKind::Backward, main, 700, 200, 0);
    backward.seq = 5;
    trace.events.push_back(backward);
    trace.events.push_back(event(trace, "worker", EventKind::Annotation, worker, 0, 2000, 0));
    trace.steps.push_back({0, 0, 1000});
    trace.finalize();
    return trace;
}

} // namespace ts::testing
