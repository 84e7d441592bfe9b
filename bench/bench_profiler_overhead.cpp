// Profiler overhead: images/s of ResNet-18 (CIFAR stem) training steps on
// synthetic 32x32 batches, on the calling thread without the Trainer, with
// (a) no profiling, (b) operator timing only (no shapes, no memory) and
// (c) full profiling (shapes, memory, FLOPs), by Trainscope's collector and,
// where LibTorch has Kineto, by Kineto (profile.recorder), with (d) Kineto
// recording shapes alone, to tell their cost from FLOPs'. The modes
// alternate round by round so that drift in machine load hits all of them
// alike; medians are reported. Every mode runs inside a MemoryTracker scope,
// as the engine does. Each round has a warm-up step (Kineto prepares there,
// as under torch.profiler's schedule) and then --steps recorded steps, timed
// one by one: the overhead is the median recorded step after the first, and
// the first one's extra time (the window's start) is reported on its own.
// The window closes after the timed steps (saving and reading Kineto's file
// is not part of a step's cost).
//
// usage: bench_profiler_overhead [--rounds N] [--steps N] [--batch N] [--threads N]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "models/Model.h"
#include "profiling/KinetoRecorder.h"
#include "profiling/MemoryTracker.h"
#include "profiling/ProfileSession.h"
#include "records/TrainerObserver.h"
#include "trace/Trace.h"
#include "util/Statistics.h"

namespace {

struct Options {
    int rounds = 5;
    int steps = 6;
    int batch = 32;
    int threads = 0;
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const int value = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--rounds"))
            o.rounds = value;
        else if (!std::strcmp(argv[i], "--steps"))
            o.steps = value;
        else if (!std::strcmp(argv[i], "--batch"))
            o.batch = value;
        else if (!std::strcmp(argv[i], "--threads"))
            o.threads = value;
        else
            std::fprintf(stderr, "ignoring unknown option %s\n", argv[i]);
    }
    return o;
}

// What a mode records beyond operator timing: nothing, input shapes alone
// (Kineto's memory events are on in every Kineto mode, docs/profiler.md), or
// shapes, memory and FLOPs.
enum class Detail { None, Shapes, Full };

struct Mode {
    const char* name;
    bool profile;
    Detail detail;
    const char* recorder = "trainscope";

    void applyTo(ts::ProfileConfig& c) const {
        c.enabled = profile;
        c.record_shapes = detail != Detail::None;
        c.profile_memory = c.with_flops = detail == Detail::Full;
        c.recorder = recorder;
    }
};

class CountingObserver : public ts::TrainerObserver {
public:
    void onProfile(const ts::ProfileCapture& c) override { events += c.trace.events.size(); }
    size_t events = 0;
};

class Bench {
public:
    explicit Bench(const Options& o) : options_(o) {
        ts::ExperimentConfig config;
        config.model = "resnet18";
        config.stem = "cifar";
        config.num_classes = 10;
        model_ = ts::createModel(config, 3);
        model_->train(true);
        optimizer_ = std::make_unique<torch::optim::SGD>(
            model_->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
        images_ = torch::randn({o.batch, 3, 32, 32});
        labels_ = torch::randint(0, 10, {o.batch});
    }

    // One mode: a warm-up step (where Kineto prepares, as in torch.profiler's
    // warmup), then options_.steps recorded steps, each timed.
    struct Timing {
        double median_step_s = 0; // of the recorded steps after the first
        double first_step_s = 0;  // the first recorded step (the window starts in it)
    };
    Timing measure(const Mode& mode, CountingObserver& observer) {
        ts::ProfileConfig c;
        mode.applyTo(c);
        c.wait = 0;
        c.warmup = 1;
        c.active = options_.steps + 1; // closed by finish(), after the clock stops
        c.repeat = 1;
        ts::ProfileSession session(c, false, tracker_);
        step(session, 0, observer);
        std::vector<double> seconds;
        for (int s = 1; s <= options_.steps; ++s) {
            const auto start = std::chrono::steady_clock::now();
            step(session, s, observer);
            seconds.push_back(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        session.finish(observer); // building the capture is not part of the steps
        Timing t;
        t.first_step_s = seconds.front();
        t.median_step_s = ts::median(std::vector<double>(seconds.begin() + 1, seconds.end()));
        return t;
    }

    // Nanoseconds per call of a tiny op (x.add_(1) on one element), so the
    // callbacks' own cost shows without the noise of whole training steps.
    double nsPerTinyOp(const Mode& mode, int calls) {
        ts::ProfileConfig c;
        mode.applyTo(c);
        c.warmup = 0;
        c.active = 2;
        ts::ProfileSession session(c, false, tracker_);
        CountingObserver ignored;
        torch::Tensor x = torch::zeros({1});
        session.stepBegin(0);
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; ++i)
            x.add_(1);
        const double ns =
            std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
                .count();
        session.stepEnd(0, ignored);
        session.finish(ignored);
        return ns / calls;
    }

    void warmUp(int steps) {
        ts::ProfileSession none(ts::ProfileConfig{}, false, tracker_);
        CountingObserver ignored;
        for (int s = 0; s < steps; ++s)
            step(none, s, ignored);
    }

private:
    void step(ts::ProfileSession& session, int64_t global, CountingObserver& observer) {
        session.stepBegin(global);
        torch::Tensor loss;
        {
            ts::ProfileSession::Range range(&session, "forward");
            loss = torch::nn::functional::cross_entropy(model_->forward(images_), labels_);
        }
        {
            ts::ProfileSession::Range range(&session, "backward");
            loss.backward();
        }
        {
            ts::ProfileSession::Range range(&session, "optimizer");
            optimizer_->step();
            optimizer_->zero_grad();
        }
        session.stepEnd(global, observer);
    }

    Options options_;
    std::shared_ptr<ts::MemoryTracker> tracker_ = ts::MemoryTracker::create();
    ts::MemoryTracker::Scope scope_{tracker_};
    std::unique_ptr<ts::Model> model_;
    std::unique_ptr<torch::optim::SGD> optimizer_;
    torch::Tensor images_, labels_;
};

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    if (o.threads > 0) torch::set_num_threads(o.threads);
    std::printf("ResNet-18 (cifar stem), batch %d, 32x32 fp32, %d steps x %d rounds, %d threads\n",
                o.batch, o.steps, o.rounds, torch::get_num_threads());
    Bench bench(o);
    bench.warmUp(3);
    std::vector<Mode> modes = {{"no profiling", false, Detail::None},
                               {"op timing only", true, Detail::None},
                               {"full (shapes, memory, FLOPs)", true, Detail::Full}};
    std::string why;
    if (ts::KinetoRecorder::available(&why)) {
        modes.push_back({"kineto: op timing only", true, Detail::None, "kineto"});
        modes.push_back({"kineto: shapes", true, Detail::Shapes, "kineto"});
        modes.push_back({"kineto: full", true, Detail::Full, "kineto"});
    } else {
        std::printf("no Kineto modes: %s\n", why.c_str());
    }
    std::vector<std::vector<double>> rates(modes.size()), first_extra(modes.size());
    std::vector<CountingObserver> observers(modes.size());
    for (int r = 0; r < o.rounds; ++r) {
        for (size_t m = 0; m < modes.size(); ++m) {
            const Bench::Timing t = bench.measure(modes[m], observers[m]);
            rates[m].push_back(o.batch / t.median_step_s);
            first_extra[m].push_back(t.first_step_s - t.median_step_s);
            std::printf("round %d  %-30s %8.2f images/s  first recorded step +%.1f ms\n", r + 1,
                        modes[m].name, rates[m].back(), 1e3 * first_extra[m].back());
            std::fflush(stdout);
        }
    }
    std::vector<std::vector<double>> tiny(modes.size());
    for (int r = 0; r < 5; ++r)
        for (size_t m = 0; m < modes.size(); ++m)
            tiny[m].push_back(bench.nsPerTinyOp(modes[m], 20000));
    const double base = ts::median(rates[0]);
    // Estimated overhead: callback cost per op x ops per step / step time.
    const double ops_per_step =
        o.rounds && o.steps ? double(observers[2].events) / o.rounds / (o.steps + 1) : 0;
    const double step_ns = base > 0 ? o.batch / base * 1e9 : 0;
    std::printf("\n%-30s %10s %10s %12s %12s %10s %12s\n", "mode", "images/s", "measured",
                "ns/tiny op", "+ns/op", "estimated", "1st step +ms");
    for (size_t m = 0; m < modes.size(); ++m) {
        const double rate = ts::median(rates[m]);
        const double extra = ts::median(tiny[m]) - ts::median(tiny[0]);
        std::printf("%-30s %10.2f %9.2f%% %12.0f %12.0f %9.3f%% %12.1f\n", modes[m].name, rate,
                    100.0 * (base - rate) / base, ts::median(tiny[m]), extra,
                    step_ns > 0 ? 100.0 * extra * ops_per_step / step_ns : 0.0,
                    1e3 * (ts::median(first_extra[m]) - ts::median(first_extra[0])));
    }
    std::printf("\n%.0f recorded events per training step; 'measured' = the median recorded step "
                "after the first against no profiling; 'estimated' = extra ns per op x events per "
                "step / median step time without profiling; '1st step' = what the first recorded "
                "step takes beyond the others, beyond that of no profiling (the window's start)\n",
                ops_per_step);
    return 0;
}
