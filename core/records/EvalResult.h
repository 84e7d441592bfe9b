#pragma once
// Loss and accuracy of one evaluation pass (plain values, no torch).
#include <cstdint>

namespace ts {

struct EvalResult {
    double loss = 0;
    double accuracy = 0; // 0..1
    int64_t samples = 0;
    double seconds = 0;
};

} // namespace ts
