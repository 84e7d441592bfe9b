// What measuring memory by category adds to a training step: the Trainer's
// calls into engine/StepMemory (reads of the live bytes at the step's marks,
// the batch's storages, the optimizer state's size) and the gradients' storages
// counted where they are cleared, timed over many repetitions after a real
// step of a ResNet with Adam, against the step itself.
//
// usage: bench_step_memory [--model resnet18|resnet50] [--device cpu|cuda]
//                          [--batch N] [--size N] [--reps N]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <torch/torch.h>

#include "BenchTiming.h"
#include "engine/StepMemory.h"
#include "models/Model.h"
#include "profiling/MemoryTracker.h"

namespace {

struct Options {
    std::string model = "resnet18";
    std::string device = "cpu";
    int batch = 32;
    int size = 32;
    int reps = 20000;
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string value = argv[i + 1];
        if (!std::strcmp(argv[i], "--model"))
            o.model = value;
        else if (!std::strcmp(argv[i], "--device"))
            o.device = value;
        else if (!std::strcmp(argv[i], "--batch"))
            o.batch = std::atoi(value.c_str());
        else if (!std::strcmp(argv[i], "--size"))
            o.size = std::atoi(value.c_str());
        else if (!std::strcmp(argv[i], "--reps"))
            o.reps = std::atoi(value.c_str());
        else
            std::fprintf(stderr, "ignoring unknown option %s\n", argv[i]);
    }
    return o;
}

} // namespace

int main(int argc, char** argv) {
    using namespace ts;
    const Options o = parse(argc, argv);
    const torch::Device device(o.device);
    const auto tracker = MemoryTracker::create();
    MemoryTracker::Scope scope(tracker);
    ExperimentConfig c;
    c.model = o.model;
    c.stem = "cifar";
    c.num_classes = 10;
    auto model = createModel(c, 3);
    model->to(device, false);
    model->train(true);
    torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
    StepMemory memory(tracker, device.is_cuda(), 0, model->parameters(), adam);
    const auto images = torch::randn({o.batch, 3, o.size, o.size}, device);
    const auto labels =
        torch::randint(0, 10, {o.batch}, torch::TensorOptions(device).dtype(torch::kLong));

    // One real step, timed; it leaves gradients and Adam's state to count.
    auto step = [&] {
        memory.beginStep();
        memory.afterCopy(images, labels);
        auto loss = torch::nn::functional::cross_entropy(model->forward(images), labels);
        memory.afterForward();
        loss.backward();
        adam.step();
    };
    step(); // warm-up: allocates the state
    if (device.is_cuda()) torch::cuda::synchronize();
    const auto t0 = bench::Clock::now();
    step();
    if (device.is_cuda()) torch::cuda::synchronize();
    const double step_s = bench::secondsSince(t0);

    int64_t sink = 0;
    const auto t1 = bench::Clock::now();
    for (int i = 0; i < o.reps; ++i) {
        memory.beginStep();
        memory.afterCopy(images, labels);
        memory.afterForward();
        StorageBytes gradients; // what clearGradients adds to its loop
        for (const auto& group : adam.param_groups())
            for (const auto& p : group.params())
                gradients.add(p.grad());
        sink += memory.endStep(gradients.total()).total();
    }
    const double per_step_s = bench::secondsSince(t1) / o.reps;
    const auto m = memory.endStep(0);
    std::printf("%s on %s, batch %d at %dx%d, %zu parameter tensors\n", o.model.c_str(),
                o.device.c_str(), o.batch, o.size, o.size, model->parameters().size());
    std::printf("step %.2f ms; memory by category %.2f us per step (%.4f%% of the step)\n",
                step_s * 1e3, per_step_s * 1e6, 100.0 * per_step_s / step_s);
    std::printf("parameters %lld, optimizer state %lld, input %lld bytes (checksum %lld)\n",
                (long long)m.parameter_bytes, (long long)m.optimizer_state_bytes,
                (long long)m.input_bytes, (long long)(sink & 0xff));
    return 0;
}
