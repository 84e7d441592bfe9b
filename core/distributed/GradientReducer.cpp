#include "distributed/GradientReducer.h"

#include <algorithm>
#include <mutex>
#include <utility>

#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/variable.h>
#include <torch/torch.h>

namespace ts {
namespace {

using Clock = std::chrono::steady_clock;

double msBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

} // namespace

// Named, not anonymous: State (declared in the header, so it has linkage)
// holds buckets, and GCC warns of a type without linkage inside it.
namespace reducer_detail {

struct Slot {
    size_t parameter = 0; // index into the reducer's parameters
    int64_t offset = 0;   // first element in the bucket's flat buffer
    int64_t numel = 0;
};

struct Bucket {
    std::vector<Slot> slots;
    at::Tensor flat;
    size_t waiting = 0; // gradients still to come this step
    bool launched = false;
    Clock::time_point launched_at;
    std::unique_ptr<PendingCollective> pending;
};

} // namespace reducer_detail

namespace {

using reducer_detail::Bucket;
using reducer_detail::Slot;

// Total length of the union of [begin, end) intervals, and the part of that
// union inside [window_begin, window_end).
std::pair<double, double>
unionAndOverlap(std::vector<std::pair<Clock::time_point, Clock::time_point>> spans,
                Clock::time_point window_begin, Clock::time_point window_end) {
    std::sort(spans.begin(), spans.end());
    double total = 0, inside = 0;
    size_t i = 0;
    while (i < spans.size()) {
        auto [begin, end] = spans[i];
        for (++i; i < spans.size() && spans[i].first <= end; ++i)
            end = std::max(end, spans[i].second);
        total += msBetween(begin, end);
        const auto a = std::max(begin, window_begin), b = std::min(end, window_end);
        if (a < b) inside += msBetween(a, b);
    }
    return {total, inside};
}

} // namespace

struct GradientReducer::State {
    Communicator& comm;
    std::vector<at::Tensor> parameters;
    std::vector<Bucket> buckets;
    std::vector<size_t> bucket_of; // parameter -> bucket
    std::vector<size_t> slot_of;   // parameter -> slot in its bucket
    // Kept alive for the hooks: a shared_ptr in LibTorch 1.13, an intrusive_ptr in 2.15.
    using Accumulator =
        decltype(torch::autograd::impl::grad_accumulator(std::declval<at::Tensor&>()));
    std::vector<Accumulator> accumulators;
    std::mutex mutex;
    bool armed = false;
    Clock::time_point backward_begin;

    explicit State(Communicator& c) : comm(c) {}

    void launch(Bucket& bucket) {
        for (const Slot& s : bucket.slots) {
            const at::Tensor& p = parameters[s.parameter];
            auto part = bucket.flat.narrow(0, s.offset, s.numel).view(p.sizes());
            const at::Tensor& grad = p.grad();
            if (grad.defined())
                part.copy_(grad);
            else
                part.zero_();
        }
        // Dividing first keeps the sum in range for fp16 buffers, as DDP does.
        bucket.flat.div_(double(comm.worldSize()));
        bucket.launched = true;
        bucket.launched_at = Clock::now();
        bucket.pending = comm.allreduceSumAsync(bucket.flat);
    }

    void gradientReady(size_t parameter) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!armed) return;
        Bucket& bucket = buckets[bucket_of[parameter]];
        if (bucket.launched || bucket.waiting == 0) return; // a parameter used twice
        if (--bucket.waiting == 0) launch(bucket);
    }
};

namespace {

// Runs after a parameter's AccumulateGrad: its gradient for this backward is final.
class ReadyHook : public torch::autograd::FunctionPostHook {
public:
    ReadyHook(std::weak_ptr<GradientReducer::State> state, size_t parameter)
        : state_(std::move(state)), parameter_(parameter) {}
    torch::autograd::variable_list operator()(const torch::autograd::variable_list& outputs,
                                              const torch::autograd::variable_list&) override {
        if (auto state = state_.lock()) state->gradientReady(parameter_);
        return outputs;
    }

private:
    std::weak_ptr<GradientReducer::State> state_;
    size_t parameter_;
};

} // namespace

GradientReducer::GradientReducer(Communicator& comm, const std::vector<at::Tensor>& parameters,
                                 size_t first_bucket_bytes, size_t bucket_bytes)
    : state_(std::make_shared<State>(comm)) {
    State& s = *state_;
    for (const auto& p : parameters)
        if (p.requires_grad()) s.parameters.push_back(p);
    s.bucket_of.resize(s.parameters.size());
    s.slot_of.resize(s.parameters.size());
    // Reverse registration order: the last layers' gradients come first.
    size_t bytes = 0;
    for (size_t k = s.parameters.size(); k-- > 0;) {
        const at::Tensor& p = s.parameters[k];
        const size_t limit = s.buckets.size() <= 1 ? first_bucket_bytes : bucket_bytes;
        const bool same_kind = !s.buckets.empty() &&
                               s.buckets.back().flat.scalar_type() == p.scalar_type() &&
                               s.buckets.back().flat.device() == p.device();
        if (s.buckets.empty() || !same_kind || bytes >= limit) {
            s.buckets.emplace_back();
            // The flat buffer's dtype and device are set once its size is known.
            s.buckets.back().flat = torch::empty({0}, p.options());
            bytes = 0;
        }
        Bucket& bucket = s.buckets.back();
        const int64_t offset =
            bucket.slots.empty() ? 0 : bucket.slots.back().offset + bucket.slots.back().numel;
        s.bucket_of[k] = s.buckets.size() - 1;
        s.slot_of[k] = bucket.slots.size();
        bucket.slots.push_back({k, offset, p.numel()});
        bytes += size_t(p.numel()) * p.element_size();
    }
    for (Bucket& bucket : s.buckets) {
        const int64_t total = bucket.slots.back().offset + bucket.slots.back().numel;
        bucket.flat = torch::zeros({total}, bucket.flat.options());
    }
    for (size_t k = 0; k < s.parameters.size(); ++k) {
        auto accumulator = torch::autograd::impl::grad_accumulator(s.parameters[k]);
        accumulator->add_post_hook(std::make_unique<ReadyHook>(state_, k));
        s.accumulators.push_back(std::move(accumulator));
    }
}

GradientReducer::~GradientReducer() {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->armed = false;
}

void GradientReducer::beginBackward() {
    std::lock_guard<std::mutex> lock(state_->mutex);
    for (Bucket& bucket : state_->buckets) {
        bucket.waiting = bucket.slots.size();
        bucket.launched = false;
        bucket.pending.reset();
    }
    state_->armed = true;
    state_->backward_begin = Clock::now();
}

ReduceTiming GradientReducer::finishBackward() {
    State& s = *state_;
    std::unique_lock<std::mutex> lock(s.mutex);
    const auto backward_end = Clock::now();
    s.armed = false;
    for (Bucket& bucket : s.buckets)
        if (!bucket.launched) s.launch(bucket);
    lock.unlock();
    std::vector<std::pair<Clock::time_point, Clock::time_point>> spans;
    for (Bucket& bucket : s.buckets) {
        bucket.pending->wait();
        spans.emplace_back(bucket.launched_at, bucket.pending->completedAt());
    }
    const auto waited_until = Clock::now();
    for (Bucket& bucket : s.buckets) {
        for (const Slot& slot : bucket.slots) {
            at::Tensor& p = s.parameters[slot.parameter];
            auto part = bucket.flat.narrow(0, slot.offset, slot.numel).view(p.sizes());
            if (p.grad().defined())
                p.mutable_grad().copy_(part);
            else
                p.mutable_grad() = part.clone();
        }
        bucket.pending.reset();
    }
    ReduceTiming timing;
    const auto [total, inside] = unionAndOverlap(spans, s.backward_begin, backward_end);
    timing.allreduce_ms = total;
    timing.overlapped_ms = inside;
    timing.comm_wait_ms = msBetween(backward_end, waited_until);
    timing.buckets = int(s.buckets.size());
    return timing;
}

std::vector<std::vector<size_t>> GradientReducer::bucketLayout() const {
    std::vector<std::vector<size_t>> layout;
    for (const Bucket& bucket : state_->buckets) {
        layout.emplace_back();
        for (const Slot& slot : bucket.slots)
            layout.back().push_back(slot.parameter);
    }
    return layout;
}

} // namespace ts
