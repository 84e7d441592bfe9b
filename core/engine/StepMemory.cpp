#include "engine/StepMemory.h"

#include <algorithm>

#include <torch/torch.h>

#include "env/TorchCompat.h"
#include "profiling/MemoryTracker.h"

namespace ts {

void StorageBytes::add(const at::Tensor& tensor) {
    if (!tensor.defined()) return;
    // Opaque tensors (MKL-DNN) have no storage: their own bytes, keyed by the tensor.
    if (!tensor.has_storage()) {
        storages_.emplace_back(tensor.unsafeGetTensorImpl(), int64_t(tensor.nbytes()));
        return;
    }
    const c10::Storage& storage = tensor.storage();
    storages_.emplace_back(storage.unsafeGetStorageImpl(), int64_t(storage.nbytes()));
}

int64_t StorageBytes::total() const {
    auto storages = storages_;
    std::sort(storages.begin(), storages.end());
    int64_t bytes = 0;
    for (size_t i = 0; i < storages.size(); ++i)
        if (i == 0 || storages[i].first != storages[i - 1].first) bytes += storages[i].second;
    return bytes;
}

int64_t optimizerStateBytes(const torch::optim::Optimizer& optimizer) {
    using namespace torch::optim;
    // The state types of the optimizers makeOptimizer offers (OptimizerFactory).
    StorageBytes bytes;
    for (const auto& [key, state] : optimizer.state()) {
        if (const auto* adam = dynamic_cast<const AdamParamState*>(state.get())) {
            bytes.add(adam->exp_avg());
            bytes.add(adam->exp_avg_sq());
            bytes.add(adam->max_exp_avg_sq());
        } else if (const auto* adamw = dynamic_cast<const AdamWParamState*>(state.get())) {
            bytes.add(adamw->exp_avg());
            bytes.add(adamw->exp_avg_sq());
            bytes.add(adamw->max_exp_avg_sq());
        } else if (const auto* sgd = dynamic_cast<const SGDParamState*>(state.get())) {
            bytes.add(sgd->momentum_buffer());
        }
    }
    return bytes.total();
}

StepMemory::StepMemory(std::shared_ptr<MemoryTracker> tracker, bool cuda, int cuda_index,
                       const std::vector<at::Tensor>& parameters,
                       const torch::optim::Optimizer& optimizer)
    : tracker_(std::move(tracker)), cuda_(cuda), cuda_index_(cuda_index), optimizer_(optimizer) {
    StorageBytes bytes;
    for (const at::Tensor& p : parameters)
        bytes.add(p);
    parameter_bytes_ = bytes.total();
}

int64_t StepMemory::liveBytes() const {
    return cuda_ ? compat::cudaAllocated(cuda_index_).current : tracker_->liveBytes();
}

int64_t StepMemory::peakBytes() const {
    return cuda_ ? compat::cudaAllocated(cuda_index_).peak : tracker_->peakBytes();
}

void StepMemory::beginStep() {
    // Both peaks: the record's CPU tensor peak is the tracker's on any device.
    tracker_->resetPeak();
    if (cuda_) compat::cudaResetPeak(cuda_index_);
    live_at_begin_ = liveBytes();
}

void StepMemory::afterCopy(const at::Tensor& images, const at::Tensor& labels) {
    live_before_forward_ = liveBytes();
    StorageBytes bytes;
    bytes.add(images);
    bytes.add(labels);
    input_bytes_ = bytes.total();
    // On the CPU, a batch the loader's worker threads assembled was allocated
    // outside the tracker's view (only this thread and the work it launches
    // report to it): what the live bytes did not grow by is added to the peak.
    const int64_t seen =
        std::clamp<int64_t>(live_before_forward_ - live_at_begin_, 0, input_bytes_);
    input_unseen_bytes_ = cuda_ ? 0 : input_bytes_ - seen;
}

void StepMemory::afterForward() {
    live_after_forward_ = liveBytes();
}

MemoryByCategory StepMemory::endStep(int64_t gradient_bytes) {
    const size_t states = optimizer_.state().size();
    if (states != counted_states_) {
        optimizer_state_bytes_ = optimizerStateBytes(optimizer_);
        counted_states_ = states;
    }
    MemoryByCategory m;
    m.parameter_bytes = parameter_bytes_;
    m.gradient_bytes = gradient_bytes;
    m.optimizer_state_bytes = optimizer_state_bytes_;
    m.input_bytes = input_bytes_;
    // Gradients are cleared to none at the end of every step, so at the start
    // of forward the device holds parameters, optimizer state, the input and
    // what is neither (buffers, caches): what forward added on top is what it
    // keeps for backward, and the loss and logits.
    m.activation_bytes = std::max<int64_t>(0, live_after_forward_ - live_before_forward_);
    const int64_t peak = peakBytes() + input_unseen_bytes_;
    m.temporary_bytes = std::max<int64_t>(0, peak - m.total());
    return m;
}

} // namespace ts
