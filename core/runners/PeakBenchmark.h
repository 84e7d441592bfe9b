#pragma once
// Micro-benchmarks for the roofline's peaks on this machine: matrix-multiply
// throughput (torch::mm on large square matrices, fp32 and bf16/fp16) and
// memory bandwidth (large tensor copy and add, STREAM-style byte counts).
#include <cstdint>
#include <string>

#include "analysis/Roofline.h"

namespace ts {

struct PeakOptions {
    std::string device = "cpu"; // cpu | cuda | cuda:N
    int matrix_size = 0;        // 0: 1024 on CPU, 8192 on CUDA
    int64_t stream_bytes = 0;   // bytes per array; 0: 256 MiB on CPU, 1 GiB on CUDA
    int repeats = 10;           // best of this many timed runs
    bool low_precision = true;  // also measure bf16 (CPU) / fp16 (CUDA) matmul
    int threads = 0;            // intra-op threads (0 = as set)
};

// Throws std::invalid_argument for an unusable device or sizes.
MachinePeaks measurePeaks(const PeakOptions& options);

// Achieved GFLOP/s of one n x n x n matmul in `dtype` ("fp32", "bf16", "fp16").
double measureMatmulGflops(const std::string& device, int n, const std::string& dtype, int repeats);
// Best of `repeats` for copy (2 x bytes moved) and add (3 x bytes), GB/s.
double measureBandwidthGbs(const std::string& device, int64_t bytes, int repeats);

} // namespace ts
