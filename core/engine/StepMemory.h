#pragma once
// Measures each training step's memory by category (records/MemoryByCategory.h)
// on the device the model trains on: the CPU tracker's bytes on the CPU, the
// CUDA allocator's on a GPU. Parameter, gradient and optimizer-state bytes come
// from the tensors themselves; activations are what forward added to the live
// bytes, temporaries what the step's peak holds beyond every other category.
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "records/MemoryByCategory.h"

namespace at {
class Tensor;
} // namespace at
namespace torch::optim {
class Optimizer;
} // namespace torch::optim

namespace ts {

class MemoryTracker;

// The bytes of the storages behind some tensors, each storage once: views and
// parameters that share a flat buffer are not counted twice.
class StorageBytes {
public:
    void add(const at::Tensor& tensor); // an undefined tensor adds nothing
    int64_t total() const;

private:
    std::vector<std::pair<const void*, int64_t>> storages_;
};

// The bytes of the optimizer's state tensors (LibTorch's per-parameter state
// map: Adam's and AdamW's exp_avg, exp_avg_sq and max_exp_avg_sq, SGD's
// momentum_buffer, Adagrad's sum, RMSprop's averages and buffers).
int64_t optimizerStateBytes(const torch::optim::Optimizer& optimizer);

class StepMemory {
public:
    // `parameters` are counted here, once: the trainer never adds, drops or
    // resizes one.
    StepMemory(std::shared_ptr<MemoryTracker> tracker, bool cuda, int cuda_index,
               const std::vector<at::Tensor>& parameters, const torch::optim::Optimizer& optimizer);

    // Before the batch is loaded: starts the step's peak on the device.
    void beginStep();
    // The batch is on the device and forward comes next.
    void afterCopy(const at::Tensor& images, const at::Tensor& labels);
    void afterForward();
    // After the optimizer: the gradients it used (counted where they are
    // cleared), the optimizer state and the step's peak give the categories.
    MemoryByCategory endStep(int64_t gradient_bytes);

private:
    int64_t liveBytes() const;
    int64_t peakBytes() const;

    std::shared_ptr<MemoryTracker> tracker_;
    bool cuda_;
    int cuda_index_;
    const torch::optim::Optimizer& optimizer_;
    int64_t parameter_bytes_ = 0;
    // Optimizer state is made on the first step and updated in place after
    // that: counted again only when the state map grows or shrinks.
    size_t counted_states_ = 0;
    int64_t optimizer_state_bytes_ = 0;
    // This step's readings.
    int64_t live_at_begin_ = 0;
    int64_t live_before_forward_ = 0;
    int64_t live_after_forward_ = 0;
    int64_t input_bytes_ = 0;
    int64_t input_unseen_bytes_ = 0;
};

} // namespace ts
