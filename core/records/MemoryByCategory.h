#pragma once
// One training step's memory by what holds it, in the categories of
// torch.profiler's memory timeline, on the device the model trains on (the
// CPU tracker's bytes on the CPU, the CUDA allocator's on a GPU). The trainer
// knows which tensors are parameters, gradients, optimizer state and input;
// activations and temporaries are what the step's live and peak bytes leave.
#include <cstdint>

namespace ts {

struct MemoryByCategory {
    int64_t parameter_bytes = 0;       // the model's parameters
    int64_t gradient_bytes = 0;        // their .grad after backward
    int64_t optimizer_state_bytes = 0; // e.g. Adam's exp_avg and exp_avg_sq
    int64_t input_bytes = 0;           // the batch's images and labels on the device
    int64_t activation_bytes = 0;      // what forward kept for backward
    int64_t temporary_bytes = 0;       // the rest of the step's peak (temporary, unknown)

    int64_t total() const {
        return parameter_bytes + gradient_bytes + optimizer_state_bytes + input_bytes +
               activation_bytes + temporary_bytes;
    }
};

// The categories in the order charts stack them (what lives the whole run
// first) and files list them: the name torch.profiler gives each, and the
// column or key that holds it in steps.csv and run.json.
struct MemoryCategoryField {
    const char* name;
    const char* key;
    int64_t MemoryByCategory::*bytes;
};
inline constexpr MemoryCategoryField kMemoryCategoryFields[] = {
    {"Parameter", "parameter_bytes", &MemoryByCategory::parameter_bytes},
    {"Optimizer state", "optimizer_state_bytes", &MemoryByCategory::optimizer_state_bytes},
    {"Input", "input_bytes", &MemoryByCategory::input_bytes},
    {"Gradient", "gradient_bytes", &MemoryByCategory::gradient_bytes},
    {"Activation", "activation_bytes", &MemoryByCategory::activation_bytes},
    {"Temporary/Unknown", "temporary_bytes", &MemoryByCategory::temporary_bytes},
};

} // namespace ts
