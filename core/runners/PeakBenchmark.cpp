#include "runners/PeakBenchmark.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <stdexcept>

#include <torch/torch.h>

#include "env/TorchCompat.h"

namespace ts {
namespace {

torch::Device deviceOf(const std::string& name) {
    try {
        torch::Device d(name);
        if (d.is_cuda() && !torch::cuda::is_available())
            throw std::invalid_argument("device " + name + ": no CUDA device is available");
        return d;
    } catch (const c10::Error&) {
        throw std::invalid_argument("device \"" + name + "\": expected cpu, cuda or cuda:N");
    }
}

// Best wall time of `repeats` runs of `work`, seconds, after untimed warm-up
// runs for at least 0.2 s: a CPU that idled needs that long to reach its
// sustained clock (one warm-up run measured half the peak on a cloud VM).
double bestSeconds(const torch::Device& d, int repeats, const std::function<void()>& work) {
    const auto warm_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
    do {
        work();
        compat::synchronize(d);
    } while (std::chrono::steady_clock::now() < warm_until);
    double best = 1e30;
    for (int i = 0; i < std::max(1, repeats); ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        work();
        compat::synchronize(d);
        best = std::min(
            best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

torch::ScalarType dtypeOf(const std::string& name) {
    if (name == "fp32") return torch::kFloat32;
    if (name == "bf16") return torch::kBFloat16;
    if (name == "fp16") return torch::kFloat16;
    throw std::invalid_argument("dtype \"" + name + "\": expected fp32, bf16 or fp16");
}

} // namespace

double measureMatmulGflops(const std::string& device, int n, const std::string& dtype,
                           int repeats) {
    if (n < 16) throw std::invalid_argument("matrix size must be at least 16");
    const auto d = deviceOf(device);
    torch::NoGradGuard no_grad;
    const auto options = torch::TensorOptions().device(d).dtype(dtypeOf(dtype));
    const auto a = torch::randn({n, n}, options), b = torch::randn({n, n}, options);
    auto c = torch::empty({n, n}, options);
    const double seconds = bestSeconds(d, repeats, [&] { torch::mm_out(c, a, b); });
    return 2.0 * double(n) * n * n / seconds / 1e9;
}

double measureBandwidthGbs(const std::string& device, int64_t bytes, int repeats) {
    if (bytes < 1 << 20) throw std::invalid_argument("bandwidth arrays must be at least 1 MiB");
    const auto d = deviceOf(device);
    torch::NoGradGuard no_grad;
    const int64_t n = bytes / int64_t(sizeof(float));
    const auto options = torch::TensorOptions().device(d).dtype(torch::kFloat32);
    const auto x = torch::rand({n}, options), y = torch::rand({n}, options);
    auto z = torch::empty({n}, options);
    const double copy = bestSeconds(d, repeats, [&] { z.copy_(x); });
    const double add = bestSeconds(d, repeats, [&] { torch::add_out(z, x, y); });
    const double moved = double(n) * sizeof(float);
    return std::max(2 * moved / copy, 3 * moved / add) / 1e9;
}

MachinePeaks measurePeaks(const PeakOptions& o) {
    const auto d = deviceOf(o.device);
    if (o.threads > 0) at::set_num_threads(o.threads);
    MachinePeaks p;
    p.device = o.device;
    p.source = "measured";
    const int n = o.matrix_size > 0 ? o.matrix_size : d.is_cuda() ? 8192 : 1024;
    const int64_t bytes =
        o.stream_bytes > 0 ? o.stream_bytes : (d.is_cuda() ? int64_t(1) << 30 : int64_t(256) << 20);
    p.fp32_gflops = measureMatmulGflops(o.device, n, "fp32", o.repeats);
    p.bandwidth_gbs = measureBandwidthGbs(o.device, bytes, o.repeats);
    p.notes.push_back("compute: best of " + std::to_string(o.repeats) + " torch::mm " +
                      std::to_string(n) + "x" + std::to_string(n) +
                      "; bandwidth: best of copy "
                      "and add over " +
                      std::to_string(bytes >> 20) + " MiB arrays");
    if (o.low_precision) {
        const std::string low = d.is_cuda() ? "fp16" : "bf16";
        try {
            p.low_gflops = measureMatmulGflops(o.device, n, low, o.repeats);
            p.low_precision = low;
        } catch (const std::exception& e) {
            p.notes.push_back(
                low + " matmul could not be measured: " + std::string(e.what()).substr(0, 120));
        }
    }
    if (!d.is_cuda())
        p.notes.push_back(std::to_string(at::get_num_threads()) + " intra-op threads");
    return p;
}

} // namespace ts
