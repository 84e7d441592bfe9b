// The roofline on kernels whose FLOPs and bytes are known exactly: measures
// this machine's peaks (matmul GFLOP/s, copy/add GB/s), then times an
// elementwise add, matrix multiplications of growing size and a 3x3
// convolution, and places each by arithmetic intensity. Small matmuls and the
// add should come out memory-bound, large matmuls compute-bound near the peak.
//   bench_roofline [device] [--png FILE]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "analysis/Roofline.h"
#include "env/TorchCompat.h"
#include "report/ChartRenderer.h"
#include "report/RooflineReport.h"
#include "runners/PeakBenchmark.h"
#include "util/Statistics.h"

#ifdef TRAINSCOPE_WITH_QT_CHARTS
#include "charts/OffscreenChartRenderer.h"
#endif

namespace {

// Median nanoseconds of `work` over `runs` runs after two warm-ups.
double medianNs(const torch::Device& device, int runs, const std::function<void()>& work) {
    std::vector<double> ns;
    for (int i = 0; i < runs + 2; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        work();
        if (device.is_cuda()) ts::compat::cudaSynchronize(device.index() < 0 ? 0 : device.index());
        if (i >= 2)
            ns.push_back(
                std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0)
                    .count());
    }
    return ts::median(ns);
}

std::vector<ts::KernelCost> timeKernels(const torch::Device& device) {
    torch::NoGradGuard no_grad;
    const auto f32 = torch::TensorOptions().device(device).dtype(torch::kFloat32);
    std::vector<ts::KernelCost> costs;
    {
        const int64_t n = int64_t(1) << 24;
        auto x = torch::rand({n}, f32), y = torch::rand({n}, f32), z = torch::empty({n}, f32);
        const double ns = medianNs(device, 5, [&] { torch::add_out(z, x, y); });
        costs.push_back({"add 16M floats", 1, double(n), 12.0 * double(n), ns, false});
    }
    for (int64_t n : {64, 256, 1024}) {
        auto a = torch::randn({n, n}, f32), b = torch::randn({n, n}, f32),
             c = torch::empty({n, n}, f32);
        const double ns = medianNs(device, 5, [&] { torch::mm_out(c, a, b); });
        costs.push_back({"mm " + std::to_string(n), 1, 2.0 * n * n * n, 12.0 * n * n, ns, false});
    }
    {
        const int64_t batch = 16, channels = 64, size = 32;
        auto x = torch::randn({batch, channels, size, size}, f32);
        auto w = torch::randn({channels, channels, 3, 3}, f32);
        const double ns = medianNs(device, 5, [&] { torch::conv2d(x, w, {}, 1, 1); });
        const double flops = 2.0 * batch * channels * size * size * channels * 9;
        const double bytes = 4.0 * (2 * x.numel() + w.numel());
        costs.push_back({"conv3x3 64ch 32x32", 1, flops, bytes, ns, false});
    }
    return costs;
}

} // namespace

int main(int argc, char** argv) {
    try {
        std::string device = "cpu", png;
        for (int i = 1; i < argc; ++i) {
            if (std::strcmp(argv[i], "--png") == 0 && i + 1 < argc)
                png = argv[++i];
            else
                device = argv[i];
        }
        ts::PeakOptions options;
        options.device = device;
        const auto peaks = ts::measurePeaks(options);
        const auto roofline = ts::buildRoofline(peaks, timeKernels(torch::Device(device)));
        std::printf("%s", ts::rooflineText(roofline, 0).c_str());
        if (!png.empty()) {
#ifdef TRAINSCOPE_WITH_QT_CHARTS
            ts::gui::installOffscreenChartRenderer();
#endif
            if (ts::writeChart(ts::rooflineChart(roofline, "Roofline: " + device), png))
                std::printf("wrote %s\n", png.c_str());
            else
                std::printf("no chart: %s\n", ts::kChartsNeedQt);
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_roofline: %s\n", e.what());
        return 1;
    }
}
