#pragma once
// Predicts a point's memory from the points already measured along the same
// line (the other swept keys equal) so that points that would not fit are
// skipped instead of being run into the CUDA allocator's OOM or the kernel's
// OOM killer. No torch.
#include <cstdint>
#include <string>
#include <vector>

namespace ts {

// How memory grows with a key: batch_size linearly, image_size with the
// square (activations grow with the pixel count). 0 = not a memory key.
double memoryExponent(const std::string& key);

struct MeasuredMemory {
    double x = 0;             // value of the memory key
    int64_t memory_bytes = 0; // measured need of that point
};

struct MemoryPrediction {
    bool known = false; // false: no smaller point to extrapolate from
    int64_t bytes = 0;
    std::string basis; // how it was predicted, for the report
};

// From one sample: need scaled by (x / x0)^exponent (an upper bound, since it
// scales the fixed part too). From two or more: least-squares fit of
// need = a + b * x^exponent, never below the largest measured need.
MemoryPrediction predictMemory(const std::vector<MeasuredMemory>& samples, double x,
                               double exponent);

struct GuardDecision {
    bool run = true;
    int64_t predicted_bytes = 0;
    int64_t available_bytes = 0;
    std::string reason; // why it is skipped, with the figures
};

// Skip when the prediction exceeds `margin` (e.g. 0.9) of the available bytes.
GuardDecision guardPoint(const MemoryPrediction& prediction, int64_t available_bytes,
                         double margin);

std::string formatMiB(int64_t bytes); // "1234 MiB"

} // namespace ts
