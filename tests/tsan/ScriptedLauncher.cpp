// Stands in for `trainscope-cli run --config FILE --nproc-per-node N --out DIR
// ...` in the ThreadSanitizer test of the GUI's data-parallel path
// (JobWorker), which cannot start the real launcher: its ranks need LibTorch
// and Gloo, which this build does not instrument. It writes what the real job
// writes and the GUI follows: the job's run.json and steps.csv in DIR and
// each rank's records in DIR/ranks/<r>, a step about every 2 ms, all ranks in
// step as a synchronous data-parallel job's are. SIGINT or SIGTERM stops
// every rank after the same step, recorded as cancelled, as the launcher
// does. Signals are taken by a thread of their own (sigwait), so this
// program runs threads under TSan too.
#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "ScriptedSteps.h"
#include "config/ConfigJson.h"
#include "report/RunDirectory.h"

namespace {

namespace fs = std::filesystem;
using namespace ts;

struct Arguments {
    fs::path config;
    fs::path out;
    int processes = 0;
};

// The arguments JobWorker passes; anything else is a mistake in the test.
bool parse(int argc, char** argv, Arguments& a) {
    if (argc < 2 || std::string(argv[1]) != "run") return false;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--config" && has_value)
            a.config = argv[++i];
        else if (arg == "--out" && has_value)
            a.out = argv[++i];
        else if (arg == "--nproc-per-node" && has_value)
            a.processes = std::atoi(argv[++i]);
        else if (arg != "--json" && arg != "--no-progress")
            return false;
    }
    return !a.config.empty() && !a.out.empty() && a.processes > 0;
}

// Every rank's recorder and the job's own (rank 0 writes the job's records),
// fed through one ObserverList.
class ScriptedJob {
public:
    ScriptedJob(const fs::path& out, int ranks) : job_(out) {
        observers_.add(&job_);
        for (int r = 0; r < ranks; ++r) {
            const fs::path dir = out / "ranks" / std::to_string(r);
            fs::create_directories(dir);
            ranks_.push_back(std::make_unique<RunRecorder>(dir));
            observers_.add(ranks_.back().get());
        }
    }
    TrainerObserver& observers() { return observers_; }

private:
    RunRecorder job_;
    std::vector<std::unique_ptr<RunRecorder>> ranks_;
    ObserverList observers_;
};

RunSummary train(const ExperimentConfig& config, TrainerObserver& job,
                 const std::atomic<bool>& stop) {
    RunInfo info;
    info.config = config;
    info.train_samples = config.synthetic_samples;
    info.steps_per_epoch = std::max<int64_t>(1, config.synthetic_samples / config.batch_size);
    job.onRunStarted(info);
    RunSummary summary;
    int64_t step = 0;
    for (int epoch = 0; epoch < config.epochs && !stop; ++epoch) {
        for (int64_t i = 0; i < info.steps_per_epoch && !stop; ++i) {
            const StepRecord s = test::scriptedStep(epoch, i, step++, config.batch_size, 2.0);
            job.onStep(s);
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        if (stop) break;
        job.onEpoch(test::scriptedEpoch(epoch, step));
        ++summary.epochs_completed;
    }
    summary.steps_completed = step;
    summary.status = stop ? RunStatus::Cancelled : RunStatus::Completed;
    job.onRunFinished(summary);
    return summary;
}

} // namespace

int main(int argc, char** argv) {
    Arguments args;
    if (!parse(argc, argv, args)) {
        std::fprintf(stderr, "error: tsan_scripted_launcher: unexpected arguments\n");
        return 2;
    }
    // Blocked before any thread starts, so that only the signal thread
    // takes them; SIGUSR1 ends that thread when the job is done.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::atomic<bool> stop{false};
    std::thread signal_thread([&] {
        int sig = 0;
        while (sigwait(&signals, &sig) == 0 && sig != SIGUSR1)
            stop = true;
    });
    int code = 0;
    try {
        const ExperimentConfig config = loadConfigFile(args.config);
        ScriptedJob job(args.out, args.processes);
        const RunSummary summary = train(config, job.observers(), stop);
        std::printf("{\"status\": \"%s\"}\n",
                    summary.status == RunStatus::Completed ? "completed" : "cancelled");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        code = 2;
    }
    pthread_kill(signal_thread.native_handle(), SIGUSR1);
    signal_thread.join();
    return code;
}
